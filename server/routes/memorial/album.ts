import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { memorialEndpoints as endpoints } from '../../../contract/memorial';
import type { AppContext } from '../../context';
import { requireAdmin, requireVisiblePage } from '../../domain/memorial/access';
import {
  addPhoto,
  deletePhoto,
  listAlbum,
  listAlbumPage,
  reorderAlbum,
  updatePhoto,
} from '../../domain/memorial/album';
import { albumAnswer } from '../../domain/memorial/pageReads';
import { endpointRoute } from '../../http/endpoints';
import { versionedAnswer } from '../../http/versionedAnswer';
import { urlWindowOf } from '../../storage/viewUrls';
import { callerOf } from './context';
import { memorialDepsOf } from '../../areaDeps';

/** The album: listed by anyone who may see the page, changed by its admins. */
export async function albumRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDepsOf(ctx);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.route({
    ...endpointRoute(endpoints.listAlbum),
    handler: async (request, reply) => {
      const access = await requireVisiblePage(deps.db, request.params.id, callerOf(request));
      const version = `album.${access.page.id}.${access.listsVersion}.${urlWindowOf(deps.clock)}`;
      return versionedAnswer(request, reply, version, () => albumAnswer(deps, access));
    },
  });

  routes.route({
    ...endpointRoute(endpoints.listAlbumPaged),
    handler: async (request, reply) => {
      const access = await requireVisiblePage(deps.db, request.params.id, callerOf(request));
      const { limit, cursor } = request.query;
      const version = `album.${access.page.id}.${access.listsVersion}.${urlWindowOf(deps.clock)}.${limit}.${encodeURIComponent(cursor ?? '')}`;
      return versionedAnswer(request, reply, version, () =>
        listAlbumPage(deps, access.page.id, limit, cursor),
      );
    },
  });

  routes.route({
    ...endpointRoute(endpoints.addPhoto),
    handler: async (request, reply) => {
      const { page, userId } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return reply.status(201).send(await addPhoto(deps, page.id, userId, request.body));
    },
  });

  routes.route({
    ...endpointRoute(endpoints.reorderAlbum),
    handler: async (request) => {
      const { page } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      await reorderAlbum(deps, page.id, request.body);
      return listAlbum(deps, page.id);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.updatePhoto),
    handler: async (request) => {
      const { page } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return await updatePhoto(deps, page.id, request.params.photoId, request.body);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.deletePhoto),
    handler: async (request, reply) => {
      const { page } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      await deletePhoto(deps, page.id, request.params.photoId);
      return reply.status(204).send();
    },
  });
}
