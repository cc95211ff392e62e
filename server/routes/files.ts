import type { FastifyInstance } from 'fastify';
import { uploadDepsOf } from '../areaDeps';
import type { AppContext } from '../context';
import { sniffImageType } from '../domain/uploads/images';
import { pendingUploadLimit, receiveUpload } from '../domain/uploads/uploads';
import { ApiError } from '../http/errors';
import { limitedAs } from '../http/rateLimits';
import type { FileUrls } from '../storage/fileUrls';
import { MAX_UPLOAD_BYTES, type ObjectStore } from '../storage/objectStore';

interface FileQuery {
  method?: string;
  expires?: string;
  signature?: string;
}

/** Nothing served from /files may run: no scripts, no plugins, no same-origin document. */
const FILE_CSP = "default-src 'none'; sandbox";

/**
 * /files/* — uploads (PUT, for every store) and the embedded store's reads (GET), through
 * URLs signed for one method and one name; an expired or altered URL answers 403. A GET
 * serves the image type its bytes are, whatever was ever claimed for them.
 */
export async function fileRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  files: { urls: FileUrls; localStore: ObjectStore },
): Promise<void> {
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
    (_request, body, done) => done(null, body),
  );
  // Every answer here, errors included, is inert on this origin.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', FILE_CSP).header('x-content-type-options', 'nosniff');
    return payload;
  });

  const authorise = (method: 'GET' | 'PUT', objectName: string, query: FileQuery) => {
    const verdict =
      query.method === method && query.expires && query.signature
        ? files.urls.verify({
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
      const file = await files.localStore.get(objectName);
      if (!file) throw new ApiError(404, 'not_found', 'file not found');
      const contentType = sniffImageType(file.body);
      // Bytes kept before uploads were checked may be anything: only images are served.
      if (!contentType || contentType === 'image/heic') {
        throw new ApiError(404, 'not_found', 'file not found');
      }
      return reply
        .type(contentType)
        .header('cache-control', 'private, max-age=600')
        .header('content-disposition', 'inline')
        .send(file.body);
    },
  );

  app.put<{ Params: { '*': string }; Querystring: FileQuery; Body: Buffer }>(
    '/files/*',
    {
      config: limitedAs('upload'),
      // A body announced larger than the upload may be is refused before it is read.
      onRequest: async (request) => {
        const objectName = (request.params as { '*': string })['*'];
        authorise('PUT', objectName, request.query as FileQuery);
        const limit = await pendingUploadLimit(ctx.database.db, objectName);
        if (limit === undefined) {
          throw new ApiError(403, 'signed_url_used', 'this upload URL has already been used');
        }
        if (Number(request.headers['content-length']) > limit) {
          throw new ApiError(413, 'image_too_large', `uploads are limited to ${limit} bytes`);
        }
      },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
        throw new ApiError(400, 'empty_upload', 'upload body is empty');
      }
      await receiveUpload(uploadDepsOf(ctx), request.params['*'], request.body);
      return reply.status(204).send();
    },
  );
}
