import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  albumOrderSchema,
  albumPhotoCreateSchema,
  albumPhotoUpdateSchema,
} from '../../../src/contract/rules/memorial';
import type { AppContext } from '../../context';
import { requireAdmin, requireVisiblePage } from '../../domain/memorial/access';
import {
  addPhoto,
  deletePhoto,
  listAlbum,
  reorderAlbum,
  updatePhoto,
} from '../../domain/memorial/album';
import { albumAnswer } from '../../domain/memorial/pageReads';
import { optionalUser } from '../../http/authenticate';
import { versionedAnswer } from '../../http/versionedAnswer';
import { urlWindowOf } from '../../storage/viewUrls';
import { callerOf, memorialDeps, pageParams } from './context';

const photoParams = pageParams.extend({ photoId: z.string().max(100) });

/** The album: listed by anyone who may see the page, changed by its admins. */
export async function albumRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDeps(ctx);
  const route = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = optionalUser(ctx);
  const base = '/v1/album/memorial_page_id/:id/album';

  route.get(base, { preHandler, schema: { params: pageParams } }, async (request, reply) => {
    const access = await requireVisiblePage(deps.db, request.params.id, callerOf(request));
    const version = `album.${access.page.id}.${access.listsVersion}.${urlWindowOf(deps.clock)}`;
    return versionedAnswer(request, reply, version, () => albumAnswer(deps, access));
  });

  route.post(
    base,
    { preHandler, schema: { params: pageParams, body: albumPhotoCreateSchema } },
    async (request, reply) => {
      const { page, userId } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return reply.status(201).send(await addPhoto(deps, page.id, userId, request.body));
    },
  );

  route.put(
    `${base}/order`,
    { preHandler, schema: { params: pageParams, body: albumOrderSchema } },
    async (request) => {
      const { page } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      await reorderAlbum(deps, page.id, request.body);
      return listAlbum(deps, page.id);
    },
  );

  route.patch(
    `${base}/:photoId`,
    { preHandler, schema: { params: photoParams, body: albumPhotoUpdateSchema } },
    async (request) => {
      const { page } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return updatePhoto(deps, page.id, request.params.photoId, request.body);
    },
  );

  route.delete(
    `${base}/:photoId`,
    { preHandler, schema: { params: photoParams } },
    async (request, reply) => {
      const { page } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      await deletePhoto(deps, page.id, request.params.photoId);
      return reply.status(204).send();
    },
  );
}
