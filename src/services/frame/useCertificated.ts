import { useQuery } from '@tanstack/react-query';
import { fetchCertificated } from './frameReads';

/**
 * Whether a member's identity is verified, for the avatar's certificated badge: true or false
 * where the server tells it, undefined (no badge) while unknown or when it cannot be read.
 */
export function useCertificated(userId: string | null): boolean | undefined {
  const answer = useQuery({
    queryKey: ['identity-verification', 'certificated', userId],
    enabled: userId !== null,
    retry: false,
    staleTime: 5 * 60_000,
    queryFn: () => fetchCertificated(userId!),
  });
  return answer.data;
}
