import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invitationSchema, memorialEndpoints as endpoints } from '../../../contract/memorial';
import type { AppContext } from '../../context';
import { requireAdmin } from '../../domain/memorial/access';
import {
  connectToInvitingUser,
  createShareToken,
  expireShareToken,
  invitationPageId,
  isValidInvitation,
  type Invitation,
} from '../../domain/memorial/invitations';
import { endpointRoute } from '../../http/endpoints';
import { callerOf, signedInCaller } from './context';
import { memorialDepsOf } from '../../areaDeps';

const invitationOf = (body: { token: string; inviting_user_id: string }): Invitation => ({
  token: body.token,
  invitingUserId: body.inviting_user_id,
});

/**
 * Invitations by shared link (share token + inviting user id): created by a page's admins,
 * validated and resolved before sign-in, accepted (connection, optional admin) after it.
 */
export async function invitationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const deps = memorialDepsOf(ctx);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.route({
    ...endpointRoute(endpoints.createShareToken),
    handler: async (request, reply) => {
      const { body } = request;
      const { page, userId } = await requireAdmin(
        deps.db,
        body.memorial_page_id,
        callerOf(request),
      );
      const created = await createShareToken(deps, page.id, userId, body.set_admin);
      return reply.status(201).send(created);
    },
  });

  // The spec: "isValid; any failure means false" — so a malformed body is simply not valid.
  routes.route({
    ...endpointRoute(endpoints.validateShareToken),
    handler: async (request) => {
      const parsed = invitationSchema.safeParse(request.body);
      const isValid =
        parsed.success &&
        (await isValidInvitation(deps, invitationOf(parsed.data), callerOf(request)));
      return { isValid };
    },
  });

  routes.route({
    ...endpointRoute(endpoints.expireShareToken),
    handler: async (request, reply) => {
      await expireShareToken(deps, invitationOf(request.body), callerOf(request));
      return reply.status(204).send();
    },
  });

  // The spec: "body is the memorial page id" — the answer is the bare id as JSON.
  routes.route({
    ...endpointRoute(endpoints.pageOfInvitation),
    handler: async (request, reply) => {
      const pageId = await invitationPageId(deps, invitationOf(request.body), callerOf(request));
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(pageId));
    },
  });

  routes.route({
    ...endpointRoute(endpoints.acceptInvitation),
    handler: async (request, reply) => {
      await connectToInvitingUser(deps, invitationOf(request.body), signedInCaller(request));
      return reply.status(204).send();
    },
  });
}
