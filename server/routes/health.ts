import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';

/** GET /healthz: 200 only while the database answers, so a load balancer can drop an instance. */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/healthz', async (_request, reply) => {
    const databaseUp = await ctx.database.ping();
    return reply
      .status(databaseUp ? 200 : 503)
      .send({ status: databaseUp ? 'ok' : 'database_unavailable' });
  });
}
