import { useQuery } from '@tanstack/react-query';
import axios from 'axios';
import {
  fetchAdmins,
  fetchAlbum,
  fetchHistories,
  fetchPage,
  memorialKeys,
} from '../../services/api/memorial';
import { useSession } from '../../services/session/useSession';

/** Why a page cannot be shown: it needs signing in, or it is not there for this reader. */
export type PageUnavailable = 'sign-in' | 'not-found' | 'failed';

export function unavailableReason(error: unknown): PageUnavailable {
  const status = axios.isAxiosError(error) ? error.response?.status : undefined;
  if (status === 401) return 'sign-in';
  if (status === 404 || status === 403) return 'not-found';
  return 'failed';
}

/** A refusal (401, 403, 404) is an answer, not a failure to try again. */
const retryUnlessRefused = (count: number, error: unknown) =>
  count < 2 && unavailableReason(error) === 'failed';

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
    retry: retryUnlessRefused,
  });
}

/** A list read once the session is known (same rule as the page read). */
function useListQuery<T>(key: readonly unknown[], read: () => Promise<T[]>, enabled: boolean) {
  const { status } = useSession();
  return useQuery({
    queryKey: key,
    queryFn: read,
    enabled: enabled && status !== 'loading',
    retry: retryUnlessRefused,
  });
}

export const useAlbum = (id: string) =>
  useListQuery(memorialKeys.album(id), () => fetchAlbum(id), id !== '');
export const useHistories = (id: string) =>
  useListQuery(memorialKeys.histories(id), () => fetchHistories(id), id !== '');
export const useAdmins = (id: string) =>
  useListQuery(memorialKeys.admins(id), () => fetchAdmins(id), id !== '');

/**
 * The page's album, history and admin lists, asked for together with the page read rather
 * than after it (one round trip less before the first photos paint).
 */
export function usePageLists(memorialPageId: string) {
  return {
    album: useAlbum(memorialPageId),
    histories: useHistories(memorialPageId),
    admins: useAdmins(memorialPageId),
  };
}
