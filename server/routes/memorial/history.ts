import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { historyCreateSchema, historyUpdateSchema } from '../../../src/contract/rules/memorial';
import type { AppContext } from '../../context';
import { requireAdmin, requireVisiblePage } from '../../domain/memorial/access';
import {
  addHistoryEntry,
  deleteHistoryEntry,
  updateHistoryEntry,
} from '../../domain/memorial/history';
import { historyAnswer } from '../../domain/memorial/pageReads';
import { optionalUser } from '../../http/authenticate';
import { versionedAnswer } from '../../http/versionedAnswer';
import { urlWindowOf } from '../../storage/viewUrls';
import { callerOf, memorialDeps, pageParams } from './context';

const entryParams = pageParams.extend({ entryId: z.string().max(100) });

/** The history timeline: listed by anyone who may see the page, changed by its admins. */
export async function historyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDeps(ctx);
  const route = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = optionalUser(ctx);
  const base = '/v1/history/memorial_page_id/:id/history';

  route.get(
    '/v1/history/get_histories_by_memorial_page_id/:id',
    { preHandler, schema: { params: pageParams } },
    async (request, reply) => {
      const access = await requireVisiblePage(deps.db, request.params.id, callerOf(request));
      const version = `history.${access.page.id}.${access.listsVersion}.${urlWindowOf(deps.clock)}`;
      return versionedAnswer(request, reply, version, () => historyAnswer(deps, access));
    },
  );

  route.post(
    base,
    { preHandler, schema: { params: pageParams, body: historyCreateSchema } },
    async (request, reply) => {
      const { page, userId } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return reply.status(201).send(await addHistoryEntry(deps, page.id, userId, request.body));
    },
  );

  route.patch(
    `${base}/:entryId`,
    { preHandler, schema: { params: entryParams, body: historyUpdateSchema } },
    async (request) => {
      const { page, userId } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return updateHistoryEntry(deps, page.id, request.params.entryId, userId, request.body);
    },
  );

  route.delete(
    `${base}/:entryId`,
    { preHandler, schema: { params: entryParams } },
    async (request, reply) => {
      const { page } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      await deleteHistoryEntry(deps, page.id, request.params.entryId);
      return reply.status(204).send();
    },
  );
}
