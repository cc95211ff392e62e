import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../http/errors';
import { LOCALES, translationsText } from './translations';

type Encoding = 'br' | 'gzip';

/**
 * The encoding to send for an Accept-Encoding header: brotli, else gzip, else none. A coding
 * given `q=0` is refused; `*` accepts both.
 */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Map<string, boolean>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [coding, ...parameters] = part.split(';').map((piece) => piece.trim());
    if (!coding) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    accepted.set(coding, q === undefined || Number(q.slice(2)) > 0);
  }
  return (['br', 'gzip'] as const).find((coding) => accepted.get(coding) ?? accepted.get('*'));
}

/**
 * GET /i18n/{locale}/translation.ftl — the Fluent file the SPA loads; Japanese only. It is on
 * the first paint's path (no text shows before it), so it goes out compressed: a third of
 * its size in gzip, less in brotli.
 */
export async function i18nRoutes(
  app: FastifyInstance,
  options: { production: boolean },
): Promise<void> {
  const load = async (locale: (typeof LOCALES)[number]) => {
    const text = await translationsText(locale);
    return {
      text,
      hash: createHash('sha1').update(text).digest('base64url'),
      encoded: { br: brotliCompressSync(text), gzip: gzipSync(text, { level: 9 }) },
    };
  };
  // Production reads the file once; development re-reads it so edits show on reload.
  const cached = options.production
    ? new Map(await Promise.all(LOCALES.map(async (l) => [l, await load(l)] as const)))
    : undefined;

  app.get<{ Params: { locale: string } }>(
    '/i18n/:locale/translation.ftl',
    async (request, reply) => {
      const locale = LOCALES.find((known) => known === request.params.locale);
      if (!locale) throw notFound('locale');
      const file = cached?.get(locale) ?? (await load(locale));
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      // Each encoding is its own representation, with its own entity tag.
      const etag = encoding ? `"${file.hash}-${encoding}"` : `"${file.hash}"`;
      reply
        .header('cache-control', 'no-cache')
        .header('etag', etag)
        .header('vary', 'accept-encoding');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      reply.type('text/plain; charset=utf-8');
      if (!encoding) return reply.send(file.text);
      return reply.header('content-encoding', encoding).send(file.encoded[encoding]);
    },
  );
}
