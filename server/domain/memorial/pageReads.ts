import { LIST_PAGE_SIZE } from '../../../contract/pages/memorialKeys';
import { pageAccess, type PageAccess } from './access';
import { listAdmins } from './admins';
import { listAlbum, listAlbumPage } from './album';
import type { MemorialDeps } from './memorialDeps';
import { listHistory, listHistoryPage } from './history';
import { pageView } from './pages';

/*
 * The four reads a memorial page opens with, for a caller whose access was checked: what the
 * API answers (routes/memorial/pages.ts, album.ts, history.ts) and what the server draws a
 * visitor's page from (server/pages/visitorPages.ts), one code for both. The page shows the
 * album and the history a page at a time, so a visitor's page is drawn from their first pages.
 */

export const pageAnswer = (deps: MemorialDeps, access: PageAccess) => pageView(deps, access);

export const albumAnswer = (deps: MemorialDeps, access: PageAccess) =>
  listAlbum(deps, access.page.id);

export const historyAnswer = (deps: MemorialDeps, access: PageAccess) =>
  listHistory(deps, access.page.id);

/** `callerId` is undefined for a signed-out visitor, who is shown no member's icon. */
export const adminsAnswer = (
  deps: MemorialDeps,
  access: PageAccess,
  callerId: string | undefined,
) => listAdmins(deps, access.page.id, callerId);

/** The first page of the album and of the history, as the paged calls answer it. */
export const albumFirstPage = (deps: MemorialDeps, access: PageAccess) =>
  listAlbumPage(deps, access.page.id, LIST_PAGE_SIZE, undefined);

export const historyFirstPage = (deps: MemorialDeps, access: PageAccess) =>
  listHistoryPage(deps, access.page.id, LIST_PAGE_SIZE, undefined);

/** The answers of the four reads, as the API sends them. */
export interface PageReadAnswers {
  page: Awaited<ReturnType<typeof pageAnswer>>;
  album: Awaited<ReturnType<typeof albumFirstPage>>;
  histories: Awaited<ReturnType<typeof historyFirstPage>>;
  admins: Awaited<ReturnType<typeof adminsAnswer>>;
}

/**
 * What the API answers a signed-out visitor for the page's reads, or undefined when a visitor
 * may not see the page (the API's 401 for them: any page that is not public, or none). The
 * visitor's access is decided as for the API's anonymous caller (access.ts), and the page must
 * be public besides: nothing of a page for members, connections or holders of the link is
 * ever read here.
 */
export async function visitorPageReads(
  deps: MemorialDeps,
  pageId: string,
): Promise<PageReadAnswers | undefined> {
  const access = await pageAccess(deps.db, pageId, undefined);
  if (!access || access.role !== null || access.page.privacy !== 'public') return undefined;
  const [page, album, histories, admins] = await Promise.all([
    pageAnswer(deps, access),
    albumFirstPage(deps, access),
    historyFirstPage(deps, access),
    adminsAnswer(deps, access, undefined),
  ]);
  return { page, album, histories, admins };
}
