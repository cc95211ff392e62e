import { memorialKeys } from '../../src/services/api/memorialKeys';
import { PAGE_ANSWERS_ID } from '../../src/services/pageAnswers';
import type { AppContext } from '../context';
import { escapeHtml } from '../domain/escapeHtml';
import { visitorPageReads, type PageReadAnswers } from '../domain/memorial/pageReads';
import { clientRouteParams } from './clientRoutes';
import { drawnUrl } from './drawnUrl';
import { memorialDeps } from './memorial/context';
import { jsonScriptElement } from './memberPage';
import type { SeededAnswer, SnapshotRenderer } from './pageRenderer';
import type { FirstPaint } from './spa';

/**
 * The query parameters that change what a memorial page draws: the frame's `inflow`
 * (ShellFrame.tsx); the screen reads none. Only they go into the render (drawnUrl.ts).
 */
export const MEMORIAL_DRAWN_PARAMS: readonly string[] = ['inflow'];

/**
 * The page id of a memorial page's path, matched as the client's router matches it (so
 * `/memory/top/me` and `/memory/new` are not pages), decoded as the client's params are.
 */
export function memorialPageIdOf(pathname: string): string | undefined {
  return clientRouteParams(pathname, '/memory/:memorialPageId')?.memorialPageId;
}

/** The page's answers under the query keys the screen reads them with (pageQuery.ts). */
export function seededAnswers(pageId: string, answers: PageReadAnswers): SeededAnswer[] {
  return [
    { key: memorialKeys.page(pageId), answer: JSON.parse(answers.page) as unknown },
    { key: memorialKeys.album(pageId), answer: JSON.parse(answers.album) as unknown },
    { key: memorialKeys.histories(pageId), answer: JSON.parse(answers.histories) as unknown },
    { key: memorialKeys.admins(pageId), answer: JSON.parse(answers.admins) as unknown },
  ];
}

/**
 * A made-up public page with a photo, an album photo, a history entry and an admin, for the
 * renderer's first render (pageRenderer.ts): drawn while nobody waits, so that the first
 * visitor's page is not the one that loads and runs the screen's code for the first time.
 */
export function memorialWarmUp(): { url: string; answers: SeededAnswer[] } {
  const pageId = '00000000-0000-4000-8000-000000000000';
  const image = '/files/warm-up.webp';
  const name = { lastName: 'warm', firstName: 'up', lastNameKana: 'う', firstNameKana: 'あ' };
  return {
    url: `/memory/${pageId}`,
    answers: seededAnswers(pageId, {
      page: JSON.stringify({
        ...name,
        memorialPageId: pageId,
        type: 'self',
        photoThumbnailUrl: image,
        photoUrl: image,
        deathDate: '2025-01-01',
        privacy: 'public',
        mode: 'admin_view',
        role: null,
        anniversaries: [{ code: 'shonanoka', date: '2025-01-07' }],
        flowerCount: 0,
      }),
      album: JSON.stringify([
        { id: 'a', url: image, thumbnailUrl: image, caption: 'c', takenOn: '2000-01-01' },
      ]),
      histories: JSON.stringify([{ id: 'h', occurredOn: '2000-01-01', body: 'b', url: image }]),
      admins: JSON.stringify([{ ...name, userId: 'u', iconUrl: image, role: 'admin' }]),
    }),
  };
}

/**
 * The head markup of a prerendered memorial page: the page photo (the largest paint) asked for
 * at once, with the highest priority, and the answers the page was drawn from, for the client
 * to seed its query cache with (src/snapshot/pageAnswers.ts).
 */
export function memorialPageHead(
  pathname: string,
  answers: SeededAnswer[],
  photoUrl: string | null,
): string {
  const preload = photoUrl
    ? `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(photoUrl)}">`
    : '';
  return `${preload}${jsonScriptElement(PAGE_ANSWERS_ID, { path: pathname, answers })}`;
}

/**
 * The first paint of a memorial page for a visitor (docs/app-shell.md, "First paint of a
 * public memorial page"): undefined for any other path, and for a page a visitor may not see
 * (that visitor gets the plain page, and the app's own 401 screen, as before). Drawn with the
 * app's own components from what the API answers a visitor (domain/memorial/pageReads.ts),
 * with the signed URLs the API hands out.
 */
export function memorialFirstPaint(
  ctx: AppContext,
  renderer: () => Promise<SnapshotRenderer | undefined>,
): (url: string) => Promise<FirstPaint | undefined> {
  const deps = memorialDeps(ctx);
  return async (url) => {
    const pathname = url.split('?', 1)[0]!;
    const pageId = memorialPageIdOf(pathname);
    if (pageId === undefined) return undefined;
    const render = await renderer();
    if (!render) return undefined;
    const reads = await visitorPageReads(deps, pageId);
    if (!reads) return undefined;
    const answers = seededAnswers(pageId, reads);
    const photo = (answers[0]!.answer as { photoThumbnailUrl?: unknown }).photoThumbnailUrl;
    return {
      snapshot: await render(drawnUrl(url, MEMORIAL_DRAWN_PARAMS), answers),
      head: memorialPageHead(pathname, answers, typeof photo === 'string' ? photo : null),
    };
  };
}
