import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { Clock } from '../domain/clock';

/**
 * How long one database answer stands for the health of the instance. Load balancers probe
 * every few seconds; under a flood of probes the database is still asked at most once a second.
 */
export const HEALTH_ANSWER_TTL_MS = 1000;

/** Asks `ping` at most once per ttl; probes that arrive meanwhile share the pending answer. */
function sharedProbe(ping: () => Promise<boolean>, clock: Clock): () => Promise<boolean> {
  let answer: { up: Promise<boolean>; askedAt: number } | undefined;
  return () => {
    const now = clock.now().getTime();
    if (!answer || now - answer.askedAt >= HEALTH_ANSWER_TTL_MS) {
      answer = { up: ping(), askedAt: now };
    }
    return answer.up;
  };
}

/** GET /healthz: 200 only while the database answers, so a load balancer can drop an instance. */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const databaseUp = sharedProbe(() => ctx.database.ping(), ctx.clock);
  app.get('/healthz', async (_request, reply) => {
    const up = await databaseUp();
    return reply.status(up ? 200 : 503).send({ status: up ? 'ok' : 'database_unavailable' });
  });
}
