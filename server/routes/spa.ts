import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchRoutes } from 'react-router';
import { distDir, ROUTE_PRELOADS_FILE } from '../paths';

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

/**
 * The built SPA: hashed assets cached for a year, index.html never cached, and every other
 * GET that wants HTML falls back to index.html (with the route's screen preloaded) so client
 * routes survive a reload.
 */
export async function spaRoutes(
  app: FastifyInstance,
  options: {
    root?: string;
    /** Head markup for this request's page only (a member's: memberPage.ts), never cached. */
    memberHead?: (
      root: string,
    ) => (request: FastifyRequest, page: string) => Promise<string | undefined>;
  } = {},
): Promise<void> {
  const root = options.root ?? distDir;
  const indexFile = path.join(root, 'index.html');
  const preloadsFile = path.join(root, ROUTE_PRELOADS_FILE);
  const pageFor = existsSync(indexFile)
    ? routePages(
        readFileSync(indexFile, 'utf8'),
        existsSync(preloadsFile)
          ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as Record<string, string[]>)
          : {},
      )
    : undefined;
  const memberHeadFor = options.memberHead?.(root);

  if (pageFor) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
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
      const page = pageFor(request.url.split('?')[0]!);
      const memberHead = await memberHeadFor?.(request, page);
      if (memberHead !== undefined) {
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store, private')
          .header('vary', 'Cookie')
          .send(page.replace('</head>', () => `${memberHead}</head>`));
      }
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    }
    return reply.status(404).send({
      detail: `no route for ${request.method} ${request.url.split('?')[0]}`,
      code: 'not_found',
    });
  });
}
