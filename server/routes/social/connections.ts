import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { relationshipBodySchema, sendRequestSchema } from '../../../src/contract/rules/social';
import type { AppContext } from '../../context';
import {
  acceptRequest,
  cancelRequest,
  declineRequest,
  listConnections,
  listRequests,
  removeConnection,
  sendRequest,
  setRelationship,
} from '../../domain/social/connections';
import { currentUserId, requireUser } from '../../http/authenticate';
import { withCertificated, withIconUrls, withWireMembers } from '../../domain/social/memberCards';

const requestParams = z.object({ request_id: z.uuid({ error: 'request_id_invalid' }) });
const memberParams = z.object({ user_id: z.uuid({ error: 'user_id_invalid' }) });

/** What `GET /v1/connection/connections` answers the member `userId`. */
export async function connectionsAnswer(ctx: AppContext, userId: string) {
  const db = ctx.database.db;
  const items = await listConnections(db, userId);
  return {
    items: await withCertificated(db, ctx.clock.now(), await withIconUrls(ctx.store, items)),
  };
}

/** つながり: connections and the requests that make them (see docs/social.md). */
export async function connectionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const preHandler = requireUser(ctx);

  api.get('/v1/connection/connections', { preHandler }, (request) =>
    connectionsAnswer(ctx, currentUserId(request)),
  );

  api.patch(
    '/v1/connection/connections/:user_id',
    { preHandler, schema: { params: memberParams, body: relationshipBodySchema } },
    async (request, reply) => {
      await setRelationship(
        db,
        currentUserId(request),
        request.params.user_id,
        request.body.relationship,
      );
      return reply.status(204).send();
    },
  );

  api.delete(
    '/v1/connection/connections/:user_id',
    { preHandler, schema: { params: memberParams } },
    async (request, reply) => {
      await removeConnection(db, currentUserId(request), request.params.user_id);
      return reply.status(204).send();
    },
  );

  api.get('/v1/connection/requests', { preHandler }, async (request) => {
    const { received, sent } = await listRequests(db, currentUserId(request));
    const wire = (items: typeof received) => withWireMembers(db, ctx.store, ctx.clock.now(), items);
    return { received: await wire(received), sent: await wire(sent) };
  });

  api.post(
    '/v1/connection/requests',
    { preHandler, schema: { body: sendRequestSchema } },
    async (request, reply) => {
      const outcome = await sendRequest(
        db,
        currentUserId(request),
        request.body.to_user_id,
        request.body.relationship,
        ctx.clock.now(),
      );
      return reply.status(outcome.status === 'requested' ? 201 : 200).send(outcome);
    },
  );

  api.post(
    '/v1/connection/requests/:request_id/accept',
    { preHandler, schema: { params: requestParams, body: relationshipBodySchema } },
    async (request, reply) => {
      await acceptRequest(
        db,
        currentUserId(request),
        request.params.request_id,
        request.body.relationship,
        ctx.clock.now(),
      );
      return reply.status(204).send();
    },
  );

  api.post(
    '/v1/connection/requests/:request_id/decline',
    { preHandler, schema: { params: requestParams } },
    async (request, reply) => {
      await declineRequest(db, currentUserId(request), request.params.request_id, ctx.clock.now());
      return reply.status(204).send();
    },
  );

  api.post(
    '/v1/connection/requests/:request_id/cancel',
    { preHandler, schema: { params: requestParams } },
    async (request, reply) => {
      await cancelRequest(db, currentUserId(request), request.params.request_id, ctx.clock.now());
      return reply.status(204).send();
    },
  );
}
