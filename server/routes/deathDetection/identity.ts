import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deathDetectionEndpoints as death } from '../../../contract/deathDetection';
import type { AppContext } from '../../context';
import { deathDepsOf } from '../../areaDeps';
import { deleteDeviceToken, registerDeviceToken } from '../../domain/deathDetection/deviceTokens';
import {
  identityStatus,
  isCertificated,
  registerCertificate,
  startRegistration,
} from '../../domain/deathDetection/identity';
import { currentUserId } from '../../http/authenticate';
import { endpointRoute } from '../../http/endpoints';

/** Identity verification through the app's certificate, and push device tokens. */
export async function identityRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = deathDepsOf(ctx);

  api.route({
    ...endpointRoute(death.identityStatus),
    handler: async (request) => identityStatus(deps, currentUserId(request)),
  });

  api.route({
    ...endpointRoute(death.identityChallenge),
    handler: async (request, reply) =>
      reply.status(201).send(await startRegistration(deps, currentUserId(request))),
  });

  api.route({
    ...endpointRoute(death.registerCertificate),
    handler: async (request, reply) =>
      reply.status(201).send(await registerCertificate(deps, currentUserId(request), request.body)),
  });

  api.route({
    ...endpointRoute(death.isCertificated),
    handler: async (request) => ({
      userId: request.params.user_id,
      certificated: await isCertificated(deps, currentUserId(request), request.params.user_id),
    }),
  });

  api.route({
    ...endpointRoute(death.registerDeviceToken),
    handler: async (request, reply) => {
      await registerDeviceToken(deps, currentUserId(request), request.body);
      return reply.status(204).send();
    },
  });

  api.route({
    ...endpointRoute(death.deleteDeviceToken),
    handler: async (request, reply) => {
      await deleteDeviceToken(deps, currentUserId(request), request.body.token);
      return reply.status(204).send();
    },
  });
}
