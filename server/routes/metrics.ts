import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { Clock } from '../lib/clock';
import { ApiError } from '../http/errors';
import { routePatternOf } from '../http/routeLabel';
import { outboxBacklog } from '../mail/outbox';

/** How long a scrape waits for the outbox's backlog before it answers the last one read. */
const OUTBOX_READ_WAIT_MS = 1000;

interface OutboxReading {
  pending: number;
  oldestSeconds: number;
  /** When it was read, Unix seconds. */
  readAt: number;
}

/**
 * The outbox backlog as the last scrape could read it: each scrape starts one read (one at a
 * time) and waits for it briefly, so that /metrics answers from memory while the database is
 * away or slow and the gauges keep their last value.
 */
function outboxReadings(
  read: () => ReturnType<typeof outboxBacklog>,
  clock: Clock,
): () => Promise<OutboxReading | undefined> {
  let last: OutboxReading | undefined;
  let reading: Promise<void> | undefined;
  return async () => {
    reading ??= read()
      .then(
        (backlog) => {
          last = { ...backlog, readAt: clock.now().getTime() / 1000 };
        },
        () => undefined,
      )
      .finally(() => {
        reading = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, OUTBOX_READ_WAIT_MS);
    });
    await Promise.race([reading, waited]);
    clearTimeout(timer);
    return last;
  };
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Counts every answer per route and, when METRICS_TOKEN is set, serves GET /metrics in the
 * Prometheus text format to a caller bearing it. Without the token there is no endpoint.
 */
export async function metricsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { metrics, database, clock } = ctx;
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, not the path: ids in paths would make a series per resource.
    const route = routePatternOf(request);
    metrics.httpRequests.inc({ method: request.method, route, status: reply.statusCode });
    metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    // Every 429 is a rate limit's refusal (a group's, a route's own, the sign-in throttle's):
    // counted here once rather than in each limit; named by its group or else its route.
    if (reply.statusCode === 429) {
      const group = request.routeOptions.config?.limit;
      metrics.rateLimitRefusals.inc({
        limit: group ?? (route.startsWith('/api/auth/') ? 'auth' : route),
      });
    }
  });

  // The three gauges, collected together, share one read.
  const outbox = outboxReadings(() => outboxBacklog(database.db, clock), clock);
  metrics.gauge(
    'shinobu_mail_outbox_pending',
    'Mails not yet sent nor given up on',
    async () => (await outbox())?.pending,
  );
  metrics.gauge(
    'shinobu_mail_outbox_oldest_pending_seconds',
    'Age of the oldest mail not yet sent (0: none)',
    async () => (await outbox())?.oldestSeconds,
  );
  metrics.gauge(
    'shinobu_mail_outbox_read_timestamp_seconds',
    'When the outbox gauges were last read from the database, Unix seconds (0: not yet)',
    async () => (await outbox())?.readAt,
  );
  metrics.gauge('shinobu_db_pool_connections', 'Open database connections', () => {
    return database.poolStats().total;
  });
  metrics.gauge('shinobu_db_pool_idle', 'Idle database connections', () => {
    return database.poolStats().idle;
  });
  metrics.gauge('shinobu_db_pool_waiting', 'Queries waiting for a database connection', () => {
    return database.poolStats().waiting;
  });

  const token = ctx.config.metricsToken;
  if (!token) return;
  app.get('/metrics', async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, token)) {
      throw new ApiError(401, 'unauthorized', 'metrics need the METRICS_TOKEN bearer token');
    }
    return reply
      .type(metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.registry.metrics());
  });
}
