import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { Clock } from '../lib/clock';

/**
 * How long one round of readiness checks stands. Load balancers probe every few seconds;
 * under a flood of probes each dependency is still asked at most once a second.
 */
export const HEALTH_ANSWER_TTL_MS = 1000;
/** A dependency that has not answered by then counts as down. */
export const READINESS_CHECK_TIMEOUT_MS = 2000;

/** `degraded`: an accelerator that does not answer; the instance still serves everything. */
type CheckState = 'up' | 'down' | 'degraded';
export type Readiness = Record<string, CheckState>;

/** Asks `check` at most once per ttl; probes that arrive meanwhile share the pending answer. */
function sharedProbe<T>(check: () => Promise<T>, clock: Clock): () => Promise<T> {
  let answer: { value: Promise<T>; askedAt: number } | undefined;
  return () => {
    const now = clock.now().getTime();
    if (!answer || now - answer.askedAt >= HEALTH_ANSWER_TTL_MS) {
      answer = { value: check(), askedAt: now };
    }
    return answer.value;
  };
}

async function stateOf(probe: () => Promise<unknown>): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_CHECK_TIMEOUT_MS);
  });
  try {
    const answered = await Promise.race([probe().then((result) => result !== false), timeout]);
    return answered ? 'up' : 'down';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /healthz: 200 while the process answers (a supervisor restarts it otherwise).
 * GET /readyz: 200 while every dependency the instance needs to serve answers — the database,
 * the object store and the SMTP relay where configured — each named with its state, so a
 * load balancer drops an instance that cannot serve and an operator sees why. Redis, where
 * configured, is named `degraded` when it does not answer, and keeps the instance in rotation:
 * without it each instance counts rate limits on its own and sign-in attempts in the database.
 */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const redis = ctx.redis;
  const checks: Record<string, () => Promise<unknown>> = {
    database: () => ctx.database.ping(),
    objectStore: () => ctx.store.probe(),
    ...(ctx.mailer.verify ? { smtp: () => ctx.mailer.verify!() } : {}),
  };
  const readiness = sharedProbe(async () => {
    const names = Object.keys(checks);
    const states = await Promise.all(names.map((name) => stateOf(checks[name]!)));
    const state = Object.fromEntries(names.map((name, index) => [name, states[index]!]));
    if (redis) {
      const answers =
        redis.available() && (await stateOf(() => redis.bounded(redis.client.ping()))) === 'up';
      state.redis = answers ? 'up' : 'degraded';
    }
    return state as Readiness;
  }, ctx.clock);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const state = await readiness();
    const down = Object.keys(state).filter((name) => state[name] === 'down');
    if (down.length === 0) return { status: 'ready', checks: state };
    return reply
      .status(503)
      .header('retry-after', '5')
      .send({
        status: 'not_ready',
        code: 'not_ready',
        detail: `not answering: ${down.join(', ')}`,
        checks: state,
      });
  });
}
