import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { socialEndpoints as social } from '../../../contract/social';
import { socialDepsOf } from '../../areaDeps';
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
  const deps = socialDepsOf(ctx);
  const items = await listConnections(deps, userId);
  return { items: await withCertificated(deps, await withIconUrls(deps, items)) };
}

/** つながり: connections and the requests that make them (see docs/social.md). */
export async function connectionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const deps = socialDepsOf(ctx);

  routes.route({
    ...endpointRoute(social.listConnections),
    handler: (request) => connectionsAnswer(ctx, currentUserId(request)),
  });

  routes.route({
    ...endpointRoute(social.setRelationship),
    handler: async (request, reply) => {
      await setRelationship(
        deps,
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
      await removeConnection(deps, currentUserId(request), request.params.user_id);
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(social.listRequests),
    handler: async (request) => {
      const { received, sent } = await listRequests(deps, currentUserId(request));
      const wire = (items: typeof received) => withWireMembers(deps, items);
      return { received: await wire(received), sent: await wire(sent) };
    },
  });

  routes.route({
    ...endpointRoute(social.sendRequest),
    handler: async (request, reply) => {
      const outcome = await sendRequest(
        deps,
        currentUserId(request),
        request.body.to_user_id,
        request.body.relationship,
      );
      return reply.status(outcome.status === 'requested' ? 201 : 200).send(outcome);
    },
  });

  routes.route({
    ...endpointRoute(social.acceptRequest),
    handler: async (request, reply) => {
      await acceptRequest(
        deps,
        currentUserId(request),
        request.params.request_id,
        request.body.relationship,
      );
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(social.declineRequest),
    handler: async (request, reply) => {
      await declineRequest(deps, currentUserId(request), request.params.request_id);
      return reply.status(204).send();
    },
  });

  routes.route({
    ...endpointRoute(social.cancelRequest),
    handler: async (request, reply) => {
      await cancelRequest(deps, currentUserId(request), request.params.request_id);
      return reply.status(204).send();
    },
  });
}
