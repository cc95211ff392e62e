import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createPageBody,
  memorialEndpoints as endpoints,
  updatePageBody,
} from '../../../contract/memorial';
import { tokyoToday } from '../../../contract/rules/account';
import type { AppContext } from '../../context';
import { requireAdmin, requireVisiblePage } from '../../domain/memorial/access';
import { addAdmin } from '../../domain/memorial/admins';
import { adminsAnswer, pageAnswer } from '../../domain/memorial/pageReads';
import { createPage, pageView, updatePage } from '../../domain/memorial/pages';
import { endpointRoute } from '../../http/endpoints';
import { callerOf, signedInCaller } from './context';
import { memorialDepsOf } from '../../areaDeps';

/** Memorial pages: create, read with the caller's mode, update, and the admin list. */
export async function memorialPageRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDepsOf(ctx);
  const today = () => tokyoToday(ctx.clock.now());
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The profile's dates are checked against the server's clock, not the contract's.
  const create = endpointRoute(endpoints.createPage);
  routes.route({
    ...create,
    schema: { ...create.schema, body: createPageBody({ today }) },
    handler: async (request, reply) => {
      const userId = signedInCaller(request);
      const pageId = await createPage(deps, userId, request.body);
      const access = await requireVisiblePage(deps.db, pageId, userId);
      return reply.status(201).send(await pageView(deps, access));
    },
  });

  routes.route({
    ...endpointRoute(endpoints.readPage),
    handler: async (request) => {
      const access = await requireVisiblePage(deps.db, request.params.id, callerOf(request));
      return await pageAnswer(deps, access);
    },
  });

  const update = endpointRoute(endpoints.updatePage);
  routes.route({
    ...update,
    schema: { ...update.schema, body: updatePageBody({ today }) },
    handler: async (request) => {
      const userId = callerOf(request);
      const access = await requireAdmin(deps.db, request.params.id, userId);
      await updatePage(deps, access, request.body);
      return await pageView(deps, await requireVisiblePage(deps.db, access.page.id, userId));
    },
  });

  routes.route({
    ...endpointRoute(endpoints.listAdmins),
    handler: async (request) => {
      const caller = callerOf(request);
      const access = await requireVisiblePage(deps.db, request.params.id, caller);
      return adminsAnswer(deps, access, caller);
    },
  });

  routes.route({
    ...endpointRoute(endpoints.addAdmin),
    handler: async (request) => {
      const { id, adminUserId } = request.params;
      await addAdmin(deps, id, adminUserId, signedInCaller(request));
      return { memorialPageId: id, userId: adminUserId, role: 'admin' as const };
    },
  });
}
