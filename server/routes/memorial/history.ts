import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { memorialEndpoints as endpoints } from '../../../contract/memorial';
import type { AppContext } from '../../context';
import { requireAdmin, requireVisiblePage } from '../../domain/memorial/access';
import {
  addHistoryEntry,
  deleteHistoryEntry,
  listHistoryPage,
  updateHistoryEntry,
} from '../../domain/memorial/history';
import { historyAnswer } from '../../domain/memorial/pageReads';
import { endpointRoute } from '../../http/endpoints';
import { versionedAnswer } from '../../http/versionedAnswer';
import { urlWindowOf } from '../../storage/viewUrls';
import { callerOf } from './context';
import { memorialDepsOf } from '../../areaDeps';

/** The history timeline: listed by anyone who may see the page, changed by its admins. */
export async function historyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDepsOf(ctx);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.route({
    ...endpointRoute(endpoints.listHistory),
    handler: async (request, reply) => {
      const access = await requireVisiblePage(deps.db, request.params.id, callerOf(request));
      const version = `history.${access.page.id}.${access.listsVersion}.${urlWindowOf(deps.clock)}`;
      return versionedAnswer(request, reply, version, () => historyAnswer(deps, access));
    },
  });

  routes.route({
    ...endpointRoute(endpoints.listHistoryPaged),
    handler: async (request, reply) => {
      const access = await requireVisiblePage(deps.db, request.params.id, callerOf(request));
      const { limit, cursor } = request.query;
      const version = `history.${access.page.id}.${access.listsVersion}.${urlWindowOf(deps.clock)}.${limit}.${encodeURIComponent(cursor ?? '')}`;
      return versionedAnswer(request, reply, version, () =>
        listHistoryPage(deps, access.page.id, limit, cursor),
      );
    },
  });

  routes.route({
    ...endpointRoute(endpoints.addHistory),
    handler: async (request, reply) => {
      const { page, userId } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return reply.status(201).send(await addHistoryEntry(deps, page.id, userId, request.body));
    },
  });

  routes.route({
    ...endpointRoute(endpoints.updateHistory),
    handler: async (request) => {
      const { page, userId } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return await updateHistoryEntry(deps, page.id, request.params.entryId, userId, request.body);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.deleteHistory),
    handler: async (request, reply) => {
      const { page } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      await deleteHistoryEntry(deps, page.id, request.params.entryId);
      return reply.status(204).send();
    },
  });
}
