import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchRoutes } from 'react-router';
import {
  isMemberOnlyPath,
  RETURN_TO_COOKIE,
  RETURN_TO_MAX_AGE_S,
} from '../../src/screens/memberOnly';
import { APP_ROOT_ID, SNAPSHOT_ID, SNAPSHOT_STYLE_ID } from '../../src/snapshot/snapshotIds';
import { distDir, LOGIN_SNAPSHOT_FILE, ROUTE_PRELOADS_FILE, SNAPSHOT_RENDERER_DIR } from '../paths';
import { acceptedEncodings } from '../http/encodings';
import { SESSION_COOKIE_NAMES } from './auth/sessionKit';
import type { MemberPageParts } from './memberPage';
import { START_AFTER_PAINT_SOURCE } from './startAfterPaint';

const API_PREFIXES = ['/v1/', '/api/', '/files/', '/i18n/'];

/**
 * index.html for each route: the built page with `modulepreload` links for the route's screen
 * chunks, so that they download with the entry instead of after it (the router asks for the
 * screen only once the entry has run). Routes are matched as the client's router matches
 * them (react-router's ranking), and each route's page is made once.
 */
export function routePages(
  indexHtml: string,
  preloads: Record<string, string[]>,
): (pathname: string) => string {
  const routes = Object.keys(preloads).map((routePath) => ({ path: routePath }));
  const pages = new Map<string, string>();
  return (pathname) => {
    const routePath = matchRoutes(routes, pathname)?.at(-1)?.route.path;
    if (routePath === undefined) return indexHtml;
    let page = pages.get(routePath);
    if (page === undefined) {
      const links = (preloads[routePath] ?? [])
        .map((file) => `<link rel="modulepreload" crossorigin href="${file}">`)
        .join('');
      page = indexHtml.replace('</head>', `${links}</head>`);
      pages.set(routePath, page);
    }
    return page;
  };
}

export interface Snapshot {
  html: string;
  css: string;
}

/**
 * A page's first paint drawn for this request (a public memorial page for a visitor,
 * memorialFirstPaint.ts): the snapshot, and markup for the head (what it was drawn from).
 */
export interface FirstPaint {
  snapshot: Snapshot;
  head: string;
}

/** The route whose page may carry the prerendered first paint. */
export const SNAPSHOT_PATH = '/login';

/**
 * Query parameters that leave /login looking as it was prerendered: `callbackUrl` only says
 * where to go after the sign-in. Anything else may change the frame or the screen
 * (`?inflow=True` hides the menus, `?error=…&code=…` shows a failure), and an unknown one is
 * not assumed harmless.
 */
const SNAPSHOT_NEUTRAL_PARAMS: readonly string[] = ['callbackUrl'];

/**
 * `page` (the route's index.html) with the snapshot drawn in it: its styles in the head under
 * an id of their own (not `data-styled`, so the client's styled-components does not take them
 * over), its markup in an inert element of its own before the app's root, and the root hidden
 * until the app hands over (src/snapshot/handOver.ts). In a dark system theme the styles hide
 * the snapshot (it is drawn light) and the app shows when it has drawn. The app's module script
 * and preloads are handed to src/snapshot/start-after-paint.js, written inline at the end of
 * the body (startAfterPaint.ts), which adds them once the snapshot is painted: a browser that
 * had the code before its first frame compiled and ran it first, and the first paint came only
 * after (docs/app-shell.md).
 */
const MODULE_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

export function withSnapshot(page: string, snapshot: Snapshot, head = ''): string {
  const rootTag = `<div id="${APP_ROOT_ID}"></div>`;
  if (!page.includes(rootTag)) throw new Error(`index.html has no ${rootTag}`);
  const css =
    `${snapshot.css}\n@media (prefers-color-scheme: dark){#${SNAPSHOT_ID}{visibility:hidden}}`.replaceAll(
      '</',
      '<\\/',
    );
  const entry = MODULE_SCRIPT.exec(page)?.[1];
  if (!entry) throw new Error('index.html has no module script');
  const preloads = [...page.matchAll(MODULE_PRELOAD)].map((link) => link[1]).join(' ');
  const startAfterPaint = `<script data-entry="${entry}" data-preloads="${preloads}">${START_AFTER_PAINT_SOURCE}</script>`;
  // Replacements by function: a `$` in the markup (a name, a caption) is text, not a pattern.
  return atBodyEnd(
    page
      .replace(MODULE_SCRIPT, '')
      .replaceAll(MODULE_PRELOAD, '')
      .replace('</head>', () => `${head}<style id="${SNAPSHOT_STYLE_ID}">${css}</style></head>`)
      .replace(
        rootTag,
        () =>
          `<div id="${SNAPSHOT_ID}" inert>${snapshot.html}</div><div id="${APP_ROOT_ID}" hidden></div>`,
      ),
    startAfterPaint,
  );
}

/** Where the end of `page`'s body is: its `</body>`, or its end if it has none. */
function bodyEndOf(page: string): number {
  return page.includes('</body>') ? page.lastIndexOf('</body>') : page.length;
}

/** `page` with `markup` at the end of its body. */
function atBodyEnd(page: string, markup: string): string {
  const at = bodyEndOf(page);
  return `${page.slice(0, at)}${markup}${page.slice(at)}`;
}

/** A page sent in parts: what is ready at once, then what `late` gives, then the rest. */
async function* streamedPage(first: string, late: Promise<string>, rest: string) {
  yield Buffer.from(first);
  yield Buffer.from(await late);
  yield Buffer.from(rest);
}

/** True when the request carries a session cookie (of either name, signed or not checked). */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(';').some((pair) => {
    const name = pair.split('=', 1)[0]!.trim();
    return SESSION_COOKIE_NAMES.includes(name);
  });
}

/**
 * What the server does with a page request before the client runs, from what it can see: the
 * path, the query and whether a session cookie (or an Authorization header, which an app's
 * web view may send instead) came with it. A visitor (neither) asking for a member-only route
 * is redirected to /login as the client would send them, the page asked for kept in a
 * short-lived cookie the client moves into `nav.postLoginRedirectUrl`
 * (src/screens/memberOnly.ts); a visitor's /login with no query that changes it gets the snapshot; anything else the plain
 * page. A member's cookie may have expired: the client then does what it always did.
 */
export type PageDecision =
  | { kind: 'redirect'; location: string; returnTo: string }
  | {
      kind: 'page';
      /** /login's build-time snapshot goes into the page. */
      snapshot: boolean;
      /** No session cookie and no Authorization: a page may be drawn for a visitor. */
      visitor: boolean;
    };

export function decidePage(
  url: string,
  headers: { cookie?: string; authorization?: string },
): PageDecision {
  const queryAt = url.indexOf('?');
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  const search = queryAt === -1 ? '' : url.slice(queryAt);
  const visitor = !hasSessionCookie(headers.cookie) && headers.authorization === undefined;
  if (!visitor) return { kind: 'page', snapshot: false, visitor };
  if (isMemberOnlyPath(pathname)) {
    return { kind: 'redirect', location: '/login', returnTo: `${pathname}${search}` };
  }
  const params = [...new URLSearchParams(search).keys()];
  return {
    kind: 'page',
    snapshot:
      pathname === SNAPSHOT_PATH && params.every((key) => SNAPSHOT_NEUTRAL_PARAMS.includes(key)),
    visitor,
  };
}

/**
 * A page drawn for this request, gzipped when the browser takes it: the snapshot is some
 * 30 KB of markup and styles, a quarter of that gzipped, and on a slow link every kilobyte
 * before the first paint counts. gzip rather than brotli: a few times quicker, for a few
 * percent more.
 */
function sendCompressed(request: FastifyRequest, reply: FastifyReply, html: string) {
  reply.header('vary', 'Cookie, Authorization, Accept-Encoding');
  if (!acceptedEncodings(request.headers['accept-encoding']).has('gzip')) return reply.send(html);
  return reply.header('content-encoding', 'gzip').send(gzipSync(html, { level: 6 }));
}

/**
 * The built SPA: hashed assets cached for a year, index.html never cached, and every other
 * GET that wants HTML falls back to index.html (with the route's screen preloaded) so client
 * routes survive a reload.
 */
export async function spaRoutes(
  app: FastifyInstance,
  options: {
    root?: string;
    /**
     * Markup for this request's page only (a member's: memberPage.ts), never cached: for its
     * head at once, and for the end of its body once read.
     */
    memberHead?: (
      root: string,
    ) => (request: FastifyRequest, page: string) => Promise<MemberPageParts | undefined>;
    /**
     * A visitor's page drawn for this request (memorialFirstPaint.ts), from the build at
     * `root`; undefined for a page that has none. Never cached.
     */
    firstPaint?: (root: string) => (url: string) => Promise<FirstPaint | undefined>;
  } = {},
): Promise<void> {
  const root = options.root ?? distDir;
  const indexFile = path.join(root, 'index.html');
  const preloadsFile = path.join(root, ROUTE_PRELOADS_FILE);
  const snapshotFile = path.join(root, LOGIN_SNAPSHOT_FILE);
  const pageFor = existsSync(indexFile)
    ? routePages(
        readFileSync(indexFile, 'utf8'),
        existsSync(preloadsFile)
          ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as Record<string, string[]>)
          : {},
      )
    : undefined;
  const memberHeadFor = options.memberHead?.(root);
  const firstPaintFor = pageFor ? options.firstPaint?.(root) : undefined;
  const snapshotPage =
    pageFor && existsSync(snapshotFile)
      ? withSnapshot(
          pageFor(SNAPSHOT_PATH),
          JSON.parse(readFileSync(snapshotFile, 'utf8')) as Snapshot,
        )
      : undefined;

  if (pageFor) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The server's own bundle (the snapshot renderer) is not the browser's.
      globIgnore: [`${SNAPSHOT_RENDERER_DIR}/**`],
      // buildSpa() leaves .br and .gz copies of every text asset beside it.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((prefix) => request.url.startsWith(prefix)) &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && pageFor) {
      const decision = decidePage(request.url, {
        cookie: request.headers.cookie,
        authorization: request.headers.authorization,
      });
      // The answer depends on the session cookie (the redirect, the snapshot, a member's
      // session in the page): a shared cache must keep one per cookie, and every page is
      // revalidated anyway.
      reply.header('cache-control', 'no-cache').header('vary', 'Cookie, Authorization');
      if (decision.kind === 'redirect') {
        reply.setCookie(RETURN_TO_COOKIE, decision.returnTo, {
          path: '/',
          maxAge: RETURN_TO_MAX_AGE_S,
          sameSite: 'lax',
          secure: request.protocol === 'https',
        });
        return reply.redirect(decision.location, 302);
      }
      reply.type('text/html; charset=utf-8');
      if (decision.snapshot && snapshotPage) return reply.send(snapshotPage);
      const page = pageFor(request.url.split('?')[0]!);
      if (decision.visitor && firstPaintFor) {
        const paint = await firstPaintFor(request.url).catch((error: unknown) => {
          // The first paint is a head start, never a condition: the plain page still works.
          request.log.error({ err: error }, 'the first paint of the page failed');
          return undefined;
        });
        // Drawn from what a visitor may see now: a page made private later must not be
        // served from any cache.
        if (paint) {
          reply.header('cache-control', 'no-store');
          return sendCompressed(request, reply, withSnapshot(page, paint.snapshot, paint.head));
        }
      }
      const member = await memberHeadFor?.(request, page);
      if (member === undefined) return reply.send(page);
      reply.header('cache-control', 'no-store, private');
      const withHead = page.replace('</head>', () => `${member.head}</head>`);
      if (!member.bodyEnd) return reply.send(withHead);
      // A page drawn for this member (their note) is its first paint, as a visitor's memorial
      // page is: it waits for its answers and its drawing, and names the code it starts after.
      const drawn = await member.firstPaint;
      if (drawn) {
        const page = atBodyEnd(withHead, await member.bodyEnd);
        return sendCompressed(request, reply, withSnapshot(page, drawn));
      }
      // The head, and with it the preloads, leaves at once; the route's first answers follow
      // when they are read, before </body>. The app's module script runs only once the whole
      // document is parsed, so it finds them.
      const bodyEndAt = bodyEndOf(withHead);
      return reply.send(
        Readable.from(
          streamedPage(withHead.slice(0, bodyEndAt), member.bodyEnd, withHead.slice(bodyEndAt)),
          { objectMode: false },
        ),
      );
    }
    return reply.status(404).send({
      detail: `no route for ${request.method} ${request.url.split('?')[0]}`,
      code: 'not_found',
    });
  });
}
