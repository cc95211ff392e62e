import { useQuery } from '@tanstack/react-query';
import { useApiGet } from '../ui/apiGet';

/**
 * Whether a member's identity is verified, for the avatar's certificated badge: true or false
 * where the server tells it, undefined (no badge) while unknown or when it cannot be read.
 * Read through the shell's `apiGet`, so the header does not pull the HTTP client into the
 * entry route.
 */
export function useCertificated(userId: string | null): boolean | undefined {
  const apiGet = useApiGet();
  const answer = useQuery({
    queryKey: ['identity-verification', 'certificated', userId],
    enabled: userId !== null,
    retry: false,
    staleTime: 5 * 60_000,
    queryFn: async () => {
      const body = (await apiGet(
        `/v1/identity_verification/certificated/${encodeURIComponent(userId!)}`,
      )) as { certificated?: unknown };
      return body.certificated === true;
    },
  });
  return answer.data;
}
