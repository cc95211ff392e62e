import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors';
import { limitedAs } from '../http/rateLimits';
import { MAX_UPLOAD_BYTES } from '../storage/objectStore';
import type { createLocalStore } from '../storage/localStore';

type LocalStore = ReturnType<typeof createLocalStore>;

interface FileQuery {
  method?: string;
  expires?: string;
  signature?: string;
}

/**
 * /files/* — the embedded object store behind signed URLs. A URL signed for GET cannot PUT and
 * the other way round; an expired or altered URL answers 403.
 */
export async function fileRoutes(app: FastifyInstance, store: LocalStore): Promise<void> {
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
    (_request, body, done) => done(null, body),
  );

  const authorise = (method: 'GET' | 'PUT', objectName: string, query: FileQuery) => {
    const verdict =
      query.method === method && query.expires && query.signature
        ? store.verify({
            method,
            objectName,
            expires: Number(query.expires),
            signature: query.signature,
          })
        : 'invalid';
    if (verdict === 'expired')
      throw new ApiError(403, 'signed_url_expired', 'signed URL has expired');
    if (verdict !== 'ok') throw new ApiError(403, 'signed_url_invalid', 'signed URL is not valid');
  };

  app.get<{ Params: { '*': string }; Querystring: FileQuery }>(
    '/files/*',
    async (request, reply) => {
      const objectName = request.params['*'];
      authorise('GET', objectName, request.query);
      const file = await store.get(objectName);
      if (!file) throw new ApiError(404, 'not_found', 'file not found');
      return reply
        .type(file.contentType)
        .header('cache-control', 'private, max-age=600')
        .header('content-disposition', 'inline')
        .send(file.body);
    },
  );

  app.put<{ Params: { '*': string }; Querystring: FileQuery; Body: Buffer }>(
    '/files/*',
    { config: limitedAs('upload') },
    async (request, reply) => {
      const objectName = request.params['*'];
      authorise('PUT', objectName, request.query);
      if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
        throw new ApiError(400, 'empty_upload', 'upload body is empty');
      }
      await store.put(
        objectName,
        request.body,
        request.headers['content-type'] ?? 'application/octet-stream',
      );
      return reply.status(204).send();
    },
  );
}
