import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedUrlQuerySchema } from '../../../src/validation/memorial';
import type { AppContext } from '../../context';
import { newUploadName } from '../../domain/memorial/images';
import { invalid } from '../../http/errors';
import { OBJECT_NAME_PATTERN } from '../../storage/objectStore';

/**
 * GET /v1/signed_url?image_name=&method= — sent without a bearer token (spec §6), since
 * registration uploads an icon before an account exists. For PUT the server chooses the
 * object name (random; only a safe image extension of image_name is kept) and answers it
 * with the URL; for GET it signs the given name. Both expire within 15 minutes and are bound
 * to the method and the name. What a PUT stored is checked when it is registered.
 */
export async function signedUrlRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/v1/signed_url', { schema: { querystring: signedUrlQuerySchema } }, async (request) => {
      const { method, image_name: given } = request.query;
      if (method === 'PUT') {
        const imageName = newUploadName(given);
        return { url: await ctx.store.signedUrl(imageName, 'PUT'), imageName };
      }
      if (!given || !OBJECT_NAME_PATTERN.test(given)) {
        throw invalid([{ field: 'image_name', code: 'image_name_invalid' }]);
      }
      return { url: await ctx.store.signedUrl(given, 'GET'), imageName: given };
    });
}
