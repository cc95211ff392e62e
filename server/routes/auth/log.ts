import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authEndpoints } from '../../../contract/auth';
import { endpointRoute } from '../../http/endpoints';

/** POST /api/auth/_log — the session client reports its own errors (the session protocol's codes, such as CLIENT_FETCH_ERROR). */
export async function authLogRoute(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...endpointRoute(authEndpoints.clientLog),
    bodyLimit: 16 * 1024,
    handler: async (request, reply) => {
      const { level, code, details } = request.body;
      const detailText = JSON.stringify(details ?? null).slice(0, 2000);
      request.log[level === 'debug' ? 'debug' : level](
        { code, source: 'client', details: detailText },
        'client auth log',
      );
      return reply.status(204).send();
    },
  });
}
