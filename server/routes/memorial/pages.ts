import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createPageSchema, updatePageSchema } from '../../../src/contract/rules/memorial';
import { tokyoToday } from '../../../src/contract/rules/account';
import type { AppContext } from '../../context';
import { requireAdmin, requireVisiblePage } from '../../domain/memorial/access';
import { addAdmin } from '../../domain/memorial/admins';
import { adminsAnswer, pageAnswer } from '../../domain/memorial/pageReads';
import { createPage, pageView, updatePage } from '../../domain/memorial/pages';
import { optionalUser } from '../../http/authenticate';
import { callerOf, memorialDeps, pageParams, signedInCaller } from './context';

/** Memorial pages: create, read with the caller's mode, update, and the admin list. */
export async function memorialPageRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDeps(ctx);
  const today = () => tokyoToday(ctx.clock.now());
  const route = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = optionalUser(ctx);

  route.post(
    '/v1/memorial_page',
    { preHandler, schema: { body: createPageSchema({ today }) } },
    async (request, reply) => {
      const userId = signedInCaller(request);
      const pageId = await createPage(deps, userId, request.body);
      const access = await requireVisiblePage(deps.db, pageId, userId);
      return reply.status(201).send(await pageView(deps, access));
    },
  );

  route.get(
    '/v1/memorial_page/:id',
    { preHandler, schema: { params: pageParams } },
    async (request) => {
      const access = await requireVisiblePage(deps.db, request.params.id, callerOf(request));
      return pageAnswer(deps, access);
    },
  );

  route.patch(
    '/v1/memorial_page/:id',
    { preHandler, schema: { params: pageParams, body: updatePageSchema({ today }) } },
    async (request) => {
      const userId = callerOf(request);
      const access = await requireAdmin(deps.db, request.params.id, userId);
      await updatePage(deps, access, request.body);
      return pageView(deps, await requireVisiblePage(deps.db, access.page.id, userId));
    },
  );

  route.get(
    '/v1/memorial_page/get_memorial_page_admin/:id',
    { preHandler, schema: { params: pageParams } },
    async (request) => {
      const access = await requireVisiblePage(deps.db, request.params.id, callerOf(request));
      return adminsAnswer(deps, access);
    },
  );

  route.post(
    '/v1/memorial_page/add_memorial_page_admin/:id/:adminUserId',
    {
      preHandler,
      schema: { params: pageParams.extend({ adminUserId: z.string().max(100) }) },
    },
    async (request) => {
      const { id, adminUserId } = request.params;
      await addAdmin(deps, id, adminUserId, signedInCaller(request));
      return { memorialPageId: id, userId: adminUserId, role: 'admin' };
    },
  );
}
