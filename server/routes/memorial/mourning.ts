import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  condolenceCreateSchema,
  condolenceDecisionSchema,
} from '../../../src/contract/rules/memorial';
import type { AppContext } from '../../context';
import { requireAdmin, requireParticipant, requireVisiblePage } from '../../domain/memorial/access';
import {
  addCondolence,
  decideCondolence,
  listCondolences,
  offerFlower,
} from '../../domain/memorial/mourning';
import { optionalUser } from '../../http/authenticate';
import { callerOf, memorialDeps, pageParams } from './context';

const condolenceParams = pageParams.extend({ condolenceId: z.string().max(100) });

/** The mourning page: condolence messages (記帳) moderated by admins, and flowers (献花). */
export async function mourningRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDeps(ctx);
  const route = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = optionalUser(ctx);
  const base = '/v1/memorial_page/:id/condolences';

  route.get(base, { preHandler, schema: { params: pageParams } }, async (request) => {
    const userId = callerOf(request);
    const access = await requireVisiblePage(deps.db, request.params.id, userId);
    return listCondolences(deps, access, userId);
  });

  route.post(
    base,
    { preHandler, schema: { params: pageParams, body: condolenceCreateSchema } },
    async (request, reply) => {
      const access = await requireParticipant(deps.db, request.params.id, callerOf(request));
      const created = await addCondolence(deps, access, access.userId, request.body.body);
      return reply.status(201).send(created);
    },
  );

  route.patch(
    `${base}/:condolenceId`,
    { preHandler, schema: { params: condolenceParams, body: condolenceDecisionSchema } },
    async (request) => {
      const { page, userId } = await requireAdmin(deps.db, request.params.id, callerOf(request));
      return decideCondolence(
        deps,
        page.id,
        request.params.condolenceId,
        userId,
        request.body.status,
      );
    },
  );

  route.post(
    '/v1/memorial_page/:id/flowers',
    { preHandler, schema: { params: pageParams } },
    async (request) => {
      const { page, userId } = await requireParticipant(
        deps.db,
        request.params.id,
        callerOf(request),
      );
      return offerFlower(deps, page.id, userId);
    },
  );
}
