import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { memorialEndpoints as endpoints } from '../../../contract/memorial';
import type { AppContext } from '../../context';
import { requireAdmin, requireParticipant, requireVisiblePage } from '../../domain/memorial/access';
import {
  addCondolence,
  decideCondolence,
  listCondolences,
  offerFlower,
} from '../../domain/memorial/mourning';
import { endpointRoute } from '../../http/endpoints';
import { callerOf } from './context';
import { memorialDepsOf } from '../../areaDeps';

/** The mourning page: condolence messages (記帳) moderated by admins, and flowers (献花). */
export async function mourningRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDepsOf(ctx);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.route({
    ...endpointRoute(endpoints.listCondolences),
    handler: async (request) => {
      const userId = callerOf(request);
      const access = await requireVisiblePage(deps.db, request.params.id, userId);
      return await listCondolences(deps, access, userId);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.addCondolence),
    handler: async (request, reply) => {
      const access = await requireParticipant(deps.db, request.params.id, callerOf(request));
      const created = await addCondolence(deps, access, access.userId, request.body.body);
      return reply.status(201).send(created);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.decideCondolence),
    handler: async (request) => {
      const { page, userId } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return await decideCondolence(
        deps,
        page.id,
        request.params.condolenceId,
        userId,
        request.body.status,
      );
    },
  });

  routes.route({
    ...endpointRoute(endpoints.offerFlower),
    handler: async (request) => {
      const { page, userId } = await requireParticipant(
        deps.db,
        request.params.id,
        callerOf(request),
      );
      return offerFlower(deps, page.id, userId);
    },
  });
}
