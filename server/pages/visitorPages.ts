import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  createPageRenderer,
  PreparedRead,
  RenderedPage,
  ServerRender,
} from '../../src/entry-server';
import { memorialKeys } from '../../contract/pages/memorialKeys';
import { PAGE_DATA_ID } from '../../contract/pages/pageHandover';
import type { AppContext } from '../context';
import { escapeHtml } from '../domain/escapeHtml';
import { visitorPageReads } from '../domain/memorial/pageReads';
import { SSR_ENTRY_FILE } from '../lib/paths';
import { translationsText } from '../lib/translations';
import { clientRouteParams } from './clientRoutes';
import { memorialDepsOf } from '../areaDeps';
import { shareImagePath } from '../routes/memorial/shareImage';
import { jsonScriptElement } from './memberPage';

export type { ServerRender } from '../../src/entry-server';

/**
 * The build's server render (src/entry-server.tsx, server/pages/build.ts) with the app's
 * translations; undefined when the build has none (the test builds of the served pages).
 */
export async function loadServerRender(root: string): Promise<ServerRender | undefined> {
  const file = path.join(root, SSR_ENTRY_FILE);
  if (!existsSync(file)) return undefined;
  const entry = (await import(pathToFileURL(file).href)) as {
    createPageRenderer: typeof createPageRenderer;
  };
  return entry.createPageRenderer(await translationsText('ja'));
}

/**
 * `load` run once, on the first call. A render that fails to load is logged, and pages go out
 * as the plain page the browser renders.
 */
export function loadedOnce(
  load: () => Promise<ServerRender | undefined>,
  log: { error: (details: object, message: string) => void },
): () => Promise<ServerRender | undefined> {
  let loading: Promise<ServerRender | undefined> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      log.error({ err: error }, 'the server render did not load');
      return undefined;
    }));
}

/** The parts of a page rendered on the server, for `serverRenderedPage`. */
export interface VisitorPage {
  rendered: RenderedPage;
  /** Share previews and the like, for the head. */
  head: string;
  /** What the page must fetch first (its largest image), at the top of the head. */
  preload?: string;
  description?: string;
}

/** The routes rendered on the server for a visitor: the pages a visitor opens cold. */
const SERVER_RENDERED_ROUTES = ['/', '/login', '/memory/:memorialPageId'];

/**
 * The page of `url` rendered for a visitor, or undefined for a route that is not rendered on
 * the server and for a memorial page a visitor may not see (the browser then shows the app's
 * own answer, and a crawler learns nothing of the page). A public memorial page is rendered
 * from what the API answers a visitor, and carries its share preview.
 */
export function visitorPages(
  ctx: AppContext,
  serverRender: () => Promise<ServerRender | undefined>,
): (url: string) => Promise<VisitorPage | undefined> {
  const deps = memorialDepsOf(ctx);
  return async (url) => {
    const pathname = url.split('?', 1)[0]!;
    const routePath = SERVER_RENDERED_ROUTES.find(
      (candidate) => clientRouteParams(pathname, candidate) !== undefined,
    );
    if (routePath === undefined) return undefined;
    const server = await serverRender();
    if (!server) return undefined;
    const pageId = clientRouteParams(pathname, '/memory/:memorialPageId')?.memorialPageId;
    let reads: PreparedRead[] = [];
    let share: { name: string; hasPhoto: boolean; photo: string | null } | undefined;
    if (pageId !== undefined) {
      const answers = await visitorPageReads(deps, pageId);
      if (!answers) return undefined;
      reads = [
        { key: memorialKeys.page(pageId), answer: answers.page },
        { key: memorialKeys.albumPages(pageId), answer: answers.album, paged: true },
        { key: memorialKeys.historyPages(pageId), answer: answers.histories, paged: true },
        { key: memorialKeys.admins(pageId), answer: answers.admins },
      ];
      share = {
        name: `${answers.page.lastName} ${answers.page.firstName}`.trim(),
        hasPhoto: answers.page.photoUrl !== null,
        photo: answers.page.photoThumbnailUrl,
      };
    }
    const rendered = await server.render(url, reads);
    if (rendered.kind !== 'page') return undefined;
    if (!pageId || !share) return { rendered, head: '' };
    const description = withoutInvisibleControls(
      server.translate('share-memorial-description', { name: share.name }),
    );
    return {
      rendered,
      description,
      // The page photo is its largest paint: on a slow link it is asked for before the scripts.
      preload: share.photo
        ? `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(share.photo)}">`
        : undefined,
      head: shareHead({
        siteName: server.translate('share-site-name'),
        title: rendered.title ?? share.name,
        description,
        url: `${ctx.config.publicUrl}/memory/${encodeURIComponent(pageId)}`,
        image: share.hasPhoto ? `${ctx.config.publicUrl}${shareImagePath(pageId)}` : undefined,
      }),
    };
  };
}

/**
 * Bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069) and
 * zero-width characters (U+200B–U+200D, U+2060, U+FEFF). A share preview shows a page's
 * name where no one can see them, so there they could only reorder or hide what it says.
 */
const INVISIBLE_CONTROLS = /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

const withoutInvisibleControls = (text: string): string => text.replace(INVISIBLE_CONTROLS, '');

/** Open Graph and X card tags of a page a visitor may share, their text without controls. */
export function shareHead(share: {
  siteName: string;
  title: string;
  description: string;
  url: string;
  image: string | undefined;
}): string {
  const tag = (attribute: 'property' | 'name', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(withoutInvisibleControls(value))}">`;
  return [
    `<link rel="canonical" href="${escapeHtml(share.url)}">`,
    tag('property', 'og:type', 'website'),
    tag('property', 'og:site_name', share.siteName),
    tag('property', 'og:title', share.title),
    tag('property', 'og:description', share.description),
    tag('property', 'og:url', share.url),
    ...(share.image
      ? [
          tag('property', 'og:image', share.image),
          tag('property', 'og:image:width', '1200'),
          tag('property', 'og:image:height', '630'),
        ]
      : []),
    tag('name', 'twitter:card', share.image ? 'summary_large_image' : 'summary'),
  ].join('');
}

/** The app's empty root in index.html, where a page's markup goes. */
export const ROOT_TAG = '<div id="root"></div>';

/**
 * index.html with a page rendered on the server: its title and description, `head` and the
 * styles in the head, the markup in the app's root, and the data the browser hydrates from.
 * `theme` is the reader's chosen theme (themeChoice.ts), for the styles to open in.
 */
export function serverRenderedPage(
  indexHtml: string,
  page: VisitorPage,
  theme: 'light' | 'dark' | undefined,
): string {
  if (!indexHtml.includes(ROOT_TAG)) throw new Error(`index.html has no ${ROOT_TAG}`);
  const { rendered } = page;
  // Replacements by function: a `$` in the markup (a name, a caption) is text, not a pattern.
  let html = indexHtml;
  if (theme) html = html.replace('<html lang="ja"', () => `<html lang="ja" data-theme="${theme}"`);
  if (page.preload)
    html = html.replace(/<meta charset="[^"]*"\s*\/?>/i, (tag) => `${tag}${page.preload}`);
  if (rendered.title) {
    html = html.replace(
      /<title>[^<]*<\/title>/,
      () => `<title>${escapeHtml(rendered.title!)}</title>`,
    );
  }
  if (page.description) {
    html = html.replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${escapeHtml(page.description!)}">`,
    );
  }
  return html
    .replace('</head>', () => `${page.head}${rendered.styles}</head>`)
    .replace(
      ROOT_TAG,
      () =>
        `<div id="root">${rendered.html}</div>${jsonScriptElement(PAGE_DATA_ID, rendered.data)}`,
    );
}
