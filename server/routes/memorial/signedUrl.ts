import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { memorialEndpoints } from '../../../contract/memorial';
import { uploadDepsOf } from '../../areaDeps';
import type { AppContext } from '../../context';
import { startUpload } from '../../domain/uploads/uploads';
import { mayViewObject } from '../../domain/uploads/viewing';
import { optionalUser } from '../../http/authenticate';
import { endpointRoute } from '../../http/endpoints';
import { ApiError, invalid, notFound } from '../../http/errors';
import { createFileUrls } from '../../storage/fileUrls';
import { OBJECT_NAME_PATTERN } from '../../storage/objectStore';

/** Calls per 15 minutes: per client address without a token, per member with one. */
export const SIGNED_URL_CALLS_PER_CLIENT = 30;
export const SIGNED_URL_CALLS_PER_MEMBER = 300;
const SIGNED_URL_WINDOW_MS = 15 * 60 * 1000;

/**
 * GET /v1/signed_url?image_name=&method= — it may come without a bearer token, since
 * registration uploads an icon before an account exists; a token, when sent, makes the
 * caller the upload's owner and the reader it is authorised as.
 *
 * PUT: the server chooses the object name (random; the extension of an image type the hint
 * names, `.jpg` otherwise), records the upload and answers a `/files` URL that accepts one
 * body, checked as it arrives (server/domain/uploads). GET: signed only for a caller who may
 * see what uses the object; 404 for anyone else. Without a token both are limited per
 * client address, and an upload to 2 MB.
 */
export async function signedUrlRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const readUser = optionalUser(ctx);
  const urls = createFileUrls({
    publicUrl: ctx.config.publicUrl,
    secret: ctx.config.authSecret,
    clock: ctx.clock,
  });
  if (!app.hasDecorator('rateLimit')) await app.register(rateLimit, { global: false });

  const memberOf = async (request: FastifyRequest) => {
    await readUser(request);
    return request.userId;
  };
  const route = endpointRoute(memorialEndpoints.signedUrl);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...route,
    config: {
      ...route.config,
      rateLimit: {
        timeWindow: SIGNED_URL_WINDOW_MS,
        keyGenerator: async (request) => {
          const userId = await memberOf(request);
          return userId ? `member:${userId}` : `client:${request.ip}`;
        },
        max: async (_request, key) =>
          key.startsWith('member:') ? SIGNED_URL_CALLS_PER_MEMBER : SIGNED_URL_CALLS_PER_CLIENT,
        errorResponseBuilder: (_request, context) =>
          new ApiError(
            429,
            'rate_limited',
            `too many signed URL requests; retry in ${context.after}`,
          ),
      },
    },
    handler: async (request) => {
      const { method, image_name: given } = request.query;
      const userId = request.userId;
      if (method === 'PUT') {
        const imageName = await startUpload(uploadDepsOf(ctx), userId, given);
        return { url: urls.sign(imageName, 'PUT'), imageName };
      }
      if (!given || !OBJECT_NAME_PATTERN.test(given)) {
        throw invalid([{ field: 'image_name', code: 'image_name_invalid' }]);
      }
      if (!(await mayViewObject(ctx.database.db, given, userId))) throw notFound('file');
      return { url: await ctx.store.signedUrl(given, 'GET'), imageName: given };
    },
  });
}
