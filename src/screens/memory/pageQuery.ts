import { useQuery } from '@tanstack/react-query';
import { memorialKeys } from '../../contract/pages/memorialKeys';
import type {
  AlbumPhoto,
  HistoryEntry,
  MemorialPage,
  PageAdmin,
  ReadOptions,
} from '../../services/api/memorial';
import { isHttpError, loadHttp } from '../../services/http/lazy';
import { PERSIST_ROOT_KEY } from '../../services/persistence/clientStorage';
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

/** One read of the page: its query key and how to make it. */
interface PageRead<T> {
  key: readonly unknown[];
  read: (options?: ReadOptions) => Promise<T>;
}

/**
 * The memorial calls, loaded with the first read, and the API client they go through with
 * them: a page the server rendered has its answers, so a visitor who only reads it loads
 * neither the contract's schemas nor axios.
 */
async function memorialApi() {
  const [api] = await Promise.all([import('../../services/api/memorial'), loadHttp()]);
  return api;
}

const pageReads = {
  page: (id: string): PageRead<MemorialPage> => ({
    key: memorialKeys.page(id),
    read: async (options) => (await memorialApi()).fetchPage(id, options),
  }),
  album: (id: string): PageRead<AlbumPhoto[]> => ({
    key: memorialKeys.album(id),
    read: async (options) => (await memorialApi()).fetchAlbum(id, options),
  }),
  histories: (id: string): PageRead<HistoryEntry[]> => ({
    key: memorialKeys.histories(id),
    read: async (options) => (await memorialApi()).fetchHistories(id, options),
  }),
  admins: (id: string): PageRead<PageAdmin[]> => ({
    key: memorialKeys.admins(id),
    read: async (options) => (await memorialApi()).fetchAdmins(id, options),
  }),
};

/**
 * Reads sent as a visitor before the session was known, by query key. They are kept for the
 * first query of their key only, and only if it runs soon (the visit they were started for)
 * and the session turned out signed out: a member's reads carry their bearer, and what a
 * page shows (mode, privacy) depends on who reads it.
 */
const visitorReads = new Map<string, { startedAt: number; answer: Promise<unknown> }>();
const VISITOR_READ_LIFETIME_MS = 10_000;

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
 * The page's first reads on a navigation in the browser, before its first render: they start
 * as a visitor's while the session check is still under way, so that a signed-out visitor's
 * page read is not one more round trip after it (the page photo waits for the page read).
 * Skipped when a member is remembered: their reads must wait for the bearer anyway. A page
 * the server rendered has its answers already (main.tsx), and the server runs no reads here.
 */
export function startVisitorReads(memorialPageId: string): void {
  if (memorialPageId === '' || typeof window === 'undefined') return;
  if (!looksSignedOut()) return;
  for (const readOf of Object.values(pageReads)) {
    const { key, read } = readOf(memorialPageId);
    const answer = read({ asVisitor: true });
    // Kept for a query that may never come; its failure is that query's to show.
    answer.catch(() => undefined);
    visitorReads.set(JSON.stringify(key), { startedAt: Date.now(), answer });
  }
  const page = visitorReads.get(JSON.stringify(memorialKeys.page(memorialPageId)));
  void page?.answer.then(
    (answer) => preloadImage((answer as MemorialPage).photoThumbnailUrl),
    () => undefined,
  );
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

/** The read of a query: the visitor read started for it when that still fits, else a new one. */
function readFor<T>({ key, read }: PageRead<T>, signedOut: boolean): Promise<T> {
  const id = JSON.stringify(key);
  const started = visitorReads.get(id);
  visitorReads.delete(id);
  if (started && signedOut && Date.now() - started.startedAt < VISITOR_READ_LIFETIME_MS) {
    return started.answer as Promise<T>;
  }
  return read();
}

/**
 * A read of the page or one of its lists, once the session is known (a member's bearer must
 * go with it: a page the caller may not see answers 401 signed out and 404 signed in).
 */
function usePageRead<T>(pageRead: PageRead<T>, enabled: boolean) {
  const { status } = useSession();
  return useQuery({
    queryKey: pageRead.key,
    queryFn: () => readFor(pageRead, status === 'unauthenticated'),
    enabled: enabled && status !== 'loading',
    retry: retryUnlessRefused,
  });
}

export const usePageQuery = (id: string) => usePageRead(pageReads.page(id), id !== '');
export const useAlbum = (id: string) => usePageRead(pageReads.album(id), id !== '');
export const useHistories = (id: string) => usePageRead(pageReads.histories(id), id !== '');
export const useAdmins = (id: string) => usePageRead(pageReads.admins(id), id !== '');

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
