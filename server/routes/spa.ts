import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { distDir } from '../paths';

const API_PREFIXES = ['/v1/', '/api/', '/files/', '/i18n/'];

/**
 * The built SPA: hashed assets cached for a year, index.html never cached, and every other
 * GET that wants HTML falls back to index.html so client routes survive a reload.
 */
export async function spaRoutes(
  app: FastifyInstance,
  options: { root?: string } = {},
): Promise<void> {
  const root = options.root ?? distDir;
  const indexFile = path.join(root, 'index.html');
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile) : undefined;
  const hasBuild = indexHtml !== undefined;

  if (hasBuild) {
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
    if (wantsPage && hasBuild) {
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(indexHtml);
    }
    return reply.status(404).send({
      detail: `no route for ${request.method} ${request.url.split('?')[0]}`,
      code: 'not_found',
    });
  });
}
