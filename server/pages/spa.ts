import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  isMemberOnlyPath,
  RETURN_TO_COOKIE,
  RETURN_TO_MAX_AGE_S,
} from '../../contract/pages/memberOnly';
import { THEME_COOKIE } from '../../contract/pages/pageHandover';
import { escapeHtml } from '../domain/escapeHtml';
import { countUnderPattern } from '../http/routeLabel';
import { clientRouteOf } from './clientRoutes';
import { distDir, SSR_DIR } from '../lib/paths';
import { SESSION_COOKIE_NAMES } from '../routes/auth/sessionKit';
import { routeModuleLinks } from './routeModules';
import { japaneseTexts } from '../lib/translations';
import { ROOT_TAG, serverRenderedPage, type VisitorPage } from './visitorPages';

const API_PREFIXES = ['/v1/', '/api/', '/files/', '/i18n/'];
const SESSION_LAYER_PREFIX = '/api/auth/';

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
 * (contract/pages/memberOnly.ts); anything else a page. A member's cookie may have expired: the
 * client then does what it always did.
 */
export type PageDecision =
  | { kind: 'redirect'; location: string; returnTo: string }
  | {
      kind: 'page';
      /** No session cookie and no Authorization: the page may be rendered for a visitor. */
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
  if (visitor && isMemberOnlyPath(pathname)) {
    return { kind: 'redirect', location: '/login', returnTo: `${pathname}${search}` };
  }
  return { kind: 'page', visitor };
}

/** The theme the reader chose, as their theme cookie says; undefined for the system's. */
function chosenTheme(request: FastifyRequest): 'light' | 'dark' | undefined {
  const theme = request.cookies[THEME_COOKIE];
  return theme === 'light' || theme === 'dark' ? theme : undefined;
}

/**
 * The built SPA: hashed assets cached for a year, index.html never cached, and every other
 * GET that wants HTML answered with a page, so client routes survive a reload: rendered on the
 * server for a visitor where `visitorPage` has one (server/pages/visitorPages.ts), with the member's
 * session in it for a member (`memberHead`, memberPage.ts), else index.html as built.
 */
/**
 * What a page the server does not render shows while its scripts load: a status line in the
 * app's root (React replaces it with its first render) and, without JavaScript, why nothing
 * comes. Both are the translation file's texts, since the app's own come only with the script.
 */
export async function loadingShell(html: string): Promise<string> {
  const t = await japaneseTexts();
  const shell =
    `<div id="root"><p role="status">${escapeHtml(t('route-loading'))}</p></div>` +
    `<noscript><p>${escapeHtml(t('app-noscript'))}</p></noscript>`;
  return html.replace(ROOT_TAG, () => shell);
}

export async function spaRoutes(
  app: FastifyInstance,
  options: {
    root?: string;
    memberHead?: (request: FastifyRequest) => Promise<string | undefined>;
    visitorPage?: (url: string) => Promise<VisitorPage | undefined>;
  } = {},
): Promise<void> {
  const root = options.root ?? distDir;
  const indexFile = path.join(root, 'index.html');
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
  const moduleLinksOf = routeModuleLinks(root);

  if (indexHtml) {
    await app.register(async (files) => {
      // The translations (i18n/<locale>/translation.ftl) are text the app reads, in UTF-8,
      // whichever copy goes out; the static server would call them a binary download.
      files.addHook('onSend', async (request, reply, payload) => {
        if (request.url.split('?', 1)[0]!.endsWith('.ftl')) {
          reply.header('content-type', 'text/plain; charset=utf-8');
        }
        return payload;
      });
      await files.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        // The server's own render and the build's manifest are not the browser's.
        globIgnore: [`${SSR_DIR}/**`, '.vite/**'],
        // buildSpa() leaves .br and .gz copies of every text asset beside it.
        preCompressed: true,
        setHeaders: (res, filePath) => {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          res.header(
            'cache-control',
            immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((prefix) => request.url.startsWith(prefix)) &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && indexHtml) {
      const pathname = request.url.split('?', 1)[0]!;
      // Counted under the client's route (`*`: its not-found page), not with real 404s.
      countUnderPattern(request, clientRouteOf(pathname)?.path ?? '*');
      const moduleLinks = moduleLinksOf(pathname);
      const pageHtml = indexHtml.replace('</head>', () => `${moduleLinks}</head>`);
      const decision = decidePage(request.url, {
        cookie: request.headers.cookie,
        authorization: request.headers.authorization,
      });
      // The answer depends on the cookies (the redirect, a member's session in the page, the
      // theme): a shared cache must keep one per cookie, and every page is revalidated.
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
      if (decision.visitor && options.visitorPage) {
        const page = await options.visitorPage(request.url).catch((error: unknown) => {
          // The server's render is a head start, never a condition: the plain page still works.
          request.log.error({ err: error }, 'the server render of the page failed');
          return undefined;
        });
        if (page) {
          return reply
            .status(page.rendered.status)
            .send(serverRenderedPage(pageHtml, page, chosenTheme(request)));
        }
      }
      const shellHtml = await loadingShell(pageHtml);
      const member = await options.memberHead?.(request);
      if (member === undefined) return reply.send(shellHtml);
      reply.header('cache-control', 'no-store, private');
      return reply.send(shellHtml.replace('</head>', () => `${member}</head>`));
    }
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith(SESSION_LAYER_PREFIX)) {
      // A session-layer action this server does not have: a client (or a proxy in front)
      // built for another session layer. The protocol's code names it in the log and answer.
      request.log.warn(
        { code: 'MISSING_NEXTAUTH_API_ROUTE_ERROR', method: request.method, path },
        'no session-layer route for this request',
      );
      return reply.status(404).send({
        detail: `the session layer has no route for ${request.method} ${path}`,
        code: 'MISSING_NEXTAUTH_API_ROUTE_ERROR',
      });
    }
    return reply.status(404).send({
      detail: `no route for ${request.method} ${path}`,
      code: 'not_found',
    });
  });
}
