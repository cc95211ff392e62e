import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { socialEndpoints as social } from '../../../src/contract/social';
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
import { currentUserId } from '../../http/authenticate';
import { withCertificated, withIconUrls, withWireMembers } from '../../domain/social/memberCards';
import { endpointRoute } from '../../http/endpoints';

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
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;

  routes.route({
    ...endpointRoute(social.listConnections),
    handler: (request) => connectionsAnswer(ctx, currentUserId(request)),
  });

  routes.route({
    ...endpointRoute(social.setRelationship),
    handler: async (request, reply) => {
      await setRelationship(
        db,
        currentUserId(request),
        request.params.user_id,
        request.body.relationship,
      );
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(social.removeConnection),
    handler: async (request, reply) => {
      await removeConnection(db, currentUserId(request), request.params.user_id);
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(social.listRequests),
    handler: async (request) => {
      const { received, sent } = await listRequests(db, currentUserId(request));
      const wire = (items: typeof received) =>
        withWireMembers(db, ctx.store, ctx.clock.now(), items);
      return { received: await wire(received), sent: await wire(sent) };
    },
  });

  routes.route({
    ...endpointRoute(social.sendRequest),
    handler: async (request, reply) => {
      const outcome = await sendRequest(
        db,
        currentUserId(request),
        request.body.to_user_id,
        request.body.relationship,
        ctx.clock.now(),
      );
      return reply.status(outcome.status === 'requested' ? 201 : 200).send(outcome);
    },
  });

  routes.route({
    ...endpointRoute(social.acceptRequest),
    handler: async (request, reply) => {
      await acceptRequest(
        db,
        currentUserId(request),
        request.params.request_id,
        request.body.relationship,
        ctx.clock.now(),
      );
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(social.declineRequest),
    handler: async (request, reply) => {
      await declineRequest(db, currentUserId(request), request.params.request_id, ctx.clock.now());
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(social.cancelRequest),
    handler: async (request, reply) => {
      await cancelRequest(db, currentUserId(request), request.params.request_id, ctx.clock.now());
      return reply.status(204).send();
    },
  });
}
