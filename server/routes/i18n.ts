import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../http/errors';
import { projectRoot } from '../paths';

const LOCALES = ['ja'] as const;

/** GET /i18n/{locale}/translation.ftl — the Fluent file the SPA loads; Japanese only. */
export async function i18nRoutes(
  app: FastifyInstance,
  options: { production: boolean },
): Promise<void> {
  const load = async (locale: string) => {
    const text = await readFile(
      path.join(projectRoot, 'src/i18n', locale, 'translation.ftl'),
      'utf8',
    );
    return { text, etag: `"${createHash('sha1').update(text).digest('base64url')}"` };
  };
  // Production reads the file once; development re-reads it so edits show on reload.
  const cached = options.production
    ? new Map(await Promise.all(LOCALES.map(async (l) => [l, await load(l)] as const)))
    : undefined;

  app.get<{ Params: { locale: string } }>(
    '/i18n/:locale/translation.ftl',
    async (request, reply) => {
      const { locale } = request.params;
      if (!(LOCALES as readonly string[]).includes(locale)) throw notFound('locale');
      const file = cached?.get(locale as (typeof LOCALES)[number]) ?? (await load(locale));
      reply.header('cache-control', 'no-cache').header('etag', file.etag);
      if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
      return reply.type('text/plain; charset=utf-8').send(file.text);
    },
  );
}
