import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { memorialEndpoints } from '../../../contract/memorial';
import type { AppContext } from '../../context';
import { publicShareImage } from '../../domain/memorial/shareImage';
import { endpointRoute } from '../../http/endpoints';
import { notFound } from '../../http/errors';
import { versionedAnswer } from '../../http/versionedAnswer';
import {} from './context';
import { memorialDepsOf } from '../../areaDeps';

/** Where a public page's share preview is (og:image): no cookie or signature needed. */
export const shareImagePath = (pageId: string) =>
  `/v1/memorial_page/${encodeURIComponent(pageId)}/share_image.jpg`;

/**
 * The share preview of a public page, for crawlers (LINE, X) that fetch it without a session.
 * Shared caches may keep it for a few minutes: a page made private stops sharing it soon. Its
 * ETag is the stored preview's name, so a crawler that holds it is answered 304.
 */
export async function shareImageRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDepsOf(ctx);
  app.withTypeProvider<ZodTypeProvider>().route({
    ...endpointRoute(memorialEndpoints.shareImage),
    handler: async (request, reply) => {
      const image = await publicShareImage(deps, request.params.id);
      if (!image) throw notFound('memorial page');
      const version = image.name.replace(/[^A-Za-z0-9_-]/g, '-');
      const send = async () => {
        const body = await image.read();
        if (!body) throw notFound('memorial page');
        return reply.type('image/jpeg').send(body);
      };
      return versionedAnswer(request, reply, version, send, 'public, max-age=300');
    },
  });
}
