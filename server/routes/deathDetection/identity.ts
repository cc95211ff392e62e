import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  certificateRegistrationSchema,
  deviceTokenDeleteSchema,
  deviceTokenSchema,
} from '../../../src/contract/rules/deathDetection';
import type { AppContext } from '../../context';
import { deathDepsOf } from '../../domain/deathDetection/deathDeps';
import { deleteDeviceToken, registerDeviceToken } from '../../domain/deathDetection/deviceTokens';
import {
  identityStatus,
  isCertificated,
  registerCertificate,
  startRegistration,
} from '../../domain/deathDetection/identity';
import { currentUserId, requireUser } from '../../http/authenticate';

const memberParams = z.object({ user_id: z.uuid({ error: 'user_id_invalid' }) });

/** Identity verification through the app's certificate, and push device tokens. */
export async function identityRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = deathDepsOf(ctx);
  const preHandler = requireUser(ctx);

  api.get('/v1/identity_verification/status', { preHandler }, async (request) =>
    identityStatus(deps, currentUserId(request)),
  );

  api.post('/v1/identity_verification/challenge', { preHandler }, async (request, reply) =>
    reply.status(201).send(await startRegistration(deps, currentUserId(request))),
  );

  api.post(
    '/v1/identity_verification/certificate',
    { preHandler, schema: { body: certificateRegistrationSchema } },
    async (request, reply) =>
      reply.status(201).send(await registerCertificate(deps, currentUserId(request), request.body)),
  );

  api.get(
    '/v1/identity_verification/certificated/:user_id',
    { preHandler, schema: { params: memberParams } },
    async (request) => ({
      userId: request.params.user_id,
      certificated: await isCertificated(deps, currentUserId(request), request.params.user_id),
    }),
  );

  api.post(
    '/v1/device_tokens',
    { preHandler, schema: { body: deviceTokenSchema } },
    async (request, reply) => {
      await registerDeviceToken(deps, currentUserId(request), request.body);
      return reply.status(204).send();
    },
  );

  api.delete(
    '/v1/device_tokens',
    { preHandler, schema: { body: deviceTokenDeleteSchema } },
    async (request, reply) => {
      await deleteDeviceToken(deps, currentUserId(request), request.body.token);
      return reply.status(204).send();
    },
  );
}
