import {
  hashKey,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { memorialKeys } from '../../../contract/pages/memorialKeys';
import type {
  AlbumPhoto,
  HistoryEntry,
  ListPage,
  MemorialPage,
  PageAdmin,
  ReadOptions,
} from '../../services/api/memorial';
import { isHttpError, loadHttp } from '../../services/http/lazy';
import { PERSIST_ROOT_KEY } from '../../services/persistence/clientStorage';
import { queryClient } from '../../services/queries/queryClient';
import { useSession } from '../../services/session/useSession';

/** Why a page cannot be shown: it needs signing in, or it is not there for this reader. */
export type PageUnavailable = 'sign-in' | 'not-found' | 'failed';

export function unavailableReason(error: unknown): PageUnavailable {
  const status = isHttpError(error) ? error.response?.status : undefined;
  if (status === 401) return 'sign-in';
  if (status === 404 || status === 403) return 'not-found';
  return 'failed';
}

/** A refusal (401, 403, 404) is an answer, not a failure to try again. */
const retryUnlessRefused = (count: number, error: unknown) =>
  count < 2 && unavailableReason(error) === 'failed';

/**
 * The memorial calls, loaded with the first read, and the API client they go through with
 * them: a page the server rendered has its answers, so a visitor who only reads it loads
 * neither the contract's schemas nor axios.
 */
async function memorialApi() {
  const [api] = await Promise.all([import('../../services/api/memorial'), loadHttp()]);
  return api;
}

/** The whole-list reads, under the keys the server's render hydrates too. */
const pageReads = {
  page: (id: string) => ({
    queryKey: memorialKeys.page(id),
    queryFn: async (options?: ReadOptions): Promise<MemorialPage> =>
      (await memorialApi()).fetchPage(id, options),
  }),
  album: (id: string) => ({
    queryKey: memorialKeys.album(id),
    queryFn: async (options?: ReadOptions): Promise<AlbumPhoto[]> =>
      (await memorialApi()).fetchAlbum(id, options),
  }),
  admins: (id: string) => ({
    queryKey: memorialKeys.admins(id),
    queryFn: async (options?: ReadOptions): Promise<PageAdmin[]> =>
      (await memorialApi()).fetchAdmins(id, options),
  }),
};

/** The paged reads: the album and the history a page at a time, from a cursor. */
const pagedReads = {
  album: (id: string) => ({
    queryKey: memorialKeys.albumPages(id),
    queryFn: async (cursor: string | null, options?: ReadOptions): Promise<ListPage<AlbumPhoto>> =>
      (await memorialApi()).fetchAlbumPage(id, cursor, options),
  }),
  histories: (id: string) => ({
    queryKey: memorialKeys.historyPages(id),
    queryFn: async (
      cursor: string | null,
      options?: ReadOptions,
    ): Promise<ListPage<HistoryEntry>> =>
      (await memorialApi()).fetchHistoryPage(id, cursor, options),
  }),
};

/** The first page's cursor is none; a page with no next cursor is the last. */
const paging = {
  initialPageParam: null as string | null,
  getNextPageParam: (last: ListPage<unknown>) => last.nextCursor,
};

/** Every item of the pages read so far, in order. */
export const itemsOf = <T>(data: InfiniteData<ListPage<T>> | undefined): T[] =>
  data?.pages.flatMap((page) => page.items) ?? [];

/** True when this browser holds no signed-in user (the persisted client state). */
function looksSignedOut(): boolean {
  try {
    const persisted = localStorage.getItem(PERSIST_ROOT_KEY);
    return !persisted || !(JSON.parse(persisted) as { user?: unknown }).user;
  } catch {
    return false;
  }
}

/**
 * The keys prefetched as a visitor's. What a page shows (mode, privacy) depends on who reads
 * it: should the session turn out signed in after all, these are read again with the bearer.
 */
const readAsVisitor = new Set<string>();

/**
 * The page's first reads on a navigation in the browser, before its first render: TanStack
 * Query prefetches them as a visitor's while the session check is still under way, so that a
 * signed-out visitor's page read is not one more round trip after it (the page photo waits
 * for the page read). Skipped when a member is remembered: their reads must wait for the
 * bearer anyway. A page the server rendered was hydrated with the same queries (main.tsx), so
 * nothing is asked again; the server runs no reads here.
 */
export function prefetchVisitorReads(memorialPageId: string): void {
  if (memorialPageId === '' || typeof window === 'undefined') return;
  if (!looksSignedOut()) return;
  const asVisitor = { asVisitor: true };
  const whole = <T>(read: {
    queryKey: readonly unknown[];
    queryFn: (o: ReadOptions) => Promise<T>;
  }) => {
    readAsVisitor.add(hashKey(read.queryKey));
    return queryClient.prefetchQuery({
      queryKey: read.queryKey,
      queryFn: () => read.queryFn(asVisitor),
    });
  };
  const paged = <T>(read: {
    queryKey: readonly unknown[];
    queryFn: (cursor: string | null, o: ReadOptions) => Promise<ListPage<T>>;
  }) => {
    readAsVisitor.add(hashKey(read.queryKey));
    return queryClient.prefetchInfiniteQuery({
      ...paging,
      queryKey: read.queryKey,
      queryFn: ({ pageParam }) => read.queryFn(pageParam, asVisitor),
    });
  };
  const page = pageReads.page(memorialPageId);
  void whole(page).then(() =>
    preloadImage(queryClient.getQueryData<MemorialPage>(page.queryKey)?.photoThumbnailUrl ?? null),
  );
  void paged(pagedReads.album(memorialPageId));
  void paged(pagedReads.histories(memorialPageId));
  void whole(pageReads.admins(memorialPageId));
}

/**
 * Fetches the page photo (the LCP element) as soon as the read names it, while the screen
 * still waits for the session check and its render; the <img> then finds it in the cache.
 */
function preloadImage(url: string | null): void {
  if (!url) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = url;
  link.fetchPriority = 'high';
  document.head.append(link);
}

/**
 * A query prefetched as a visitor's is read again once the session is known to be a
 * member's; its answer was a visitor's.
 */
function useVisitorReadChecked(queryKey: readonly unknown[]) {
  const { status } = useSession();
  const client = useQueryClient();
  const hash = hashKey(queryKey);
  useEffect(() => {
    if (status === 'authenticated' && readAsVisitor.delete(hash)) {
      void client.resetQueries({ queryKey: JSON.parse(hash) as unknown[], exact: true });
    }
  }, [status, client, hash]);
  return status;
}

/**
 * A read of the page or one of its lists, once the session is known (a member's bearer must
 * go with it: a page the caller may not see answers 401 signed out and 404 signed in). A
 * prefetched or hydrated answer shows at once.
 */
function usePageRead<T>(
  read: { queryKey: readonly unknown[]; queryFn: () => Promise<T> },
  enabled: boolean,
) {
  const status = useVisitorReadChecked(read.queryKey);
  return useQuery({
    queryKey: read.queryKey,
    queryFn: () => read.queryFn(),
    enabled: enabled && status !== 'loading',
    retry: retryUnlessRefused,
  });
}

/** A paged list, its first page read as `usePageRead` reads, the next on the "more" button. */
function usePagedRead<T>(
  read: {
    queryKey: readonly unknown[];
    queryFn: (cursor: string | null) => Promise<ListPage<T>>;
  },
  enabled: boolean,
) {
  const status = useVisitorReadChecked(read.queryKey);
  return useInfiniteQuery({
    ...paging,
    queryKey: read.queryKey,
    queryFn: ({ pageParam }) => read.queryFn(pageParam),
    enabled: enabled && status !== 'loading',
    retry: retryUnlessRefused,
  });
}

export const usePageQuery = (id: string) => usePageRead(pageReads.page(id), id !== '');
/** The whole album: its admins reorder it, which takes every photo. */
export const useAlbum = (id: string, enabled = true) =>
  usePageRead(pageReads.album(id), enabled && id !== '');
export const useAlbumPages = (id: string) => usePagedRead(pagedReads.album(id), id !== '');
export const useHistoryPages = (id: string) => usePagedRead(pagedReads.histories(id), id !== '');
export const useAdmins = (id: string) => usePageRead(pageReads.admins(id), id !== '');

/**
 * The page's album, history and admin lists, asked for together with the page read rather
 * than after it (one round trip less before the first photos paint).
 */
export function usePageLists(memorialPageId: string) {
  return {
    album: useAlbumPages(memorialPageId),
    histories: useHistoryPages(memorialPageId),
    admins: useAdmins(memorialPageId),
  };
}
