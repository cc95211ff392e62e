import { useQuery } from '@tanstack/react-query';
import axios from 'axios';
import { fetchPage, memorialKeys } from '../../services/api/memorial';
import { useSession } from '../../services/session/useSession';

/** Why a page cannot be shown: it needs signing in, or it is not there for this reader. */
export type PageUnavailable = 'sign-in' | 'not-found' | 'failed';

export function unavailableReason(error: unknown): PageUnavailable {
  const status = axios.isAxiosError(error) ? error.response?.status : undefined;
  if (status === 401) return 'sign-in';
  if (status === 404 || status === 403) return 'not-found';
  return 'failed';
}

/**
 * The page read, once the session is known (a member's bearer must go with it: a page the
 * caller may not see answers 401 signed out and 404 signed in).
 */
export function usePageQuery(memorialPageId: string) {
  const { status } = useSession();
  return useQuery({
    queryKey: memorialKeys.page(memorialPageId),
    queryFn: () => fetchPage(memorialPageId),
    enabled: status !== 'loading' && memorialPageId !== '',
    retry: (count, error) => count < 2 && unavailableReason(error) === 'failed',
  });
}
