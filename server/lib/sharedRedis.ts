import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** The longest a connection attempt or a command may take before its caller goes without Redis. */
export const REDIS_TIMEOUT_MS = 500;
/** The longest wait between two reconnection attempts while Redis is away. */
const RECONNECT_MAX_DELAY_MS = 1000;

/**
 * The one Redis connection of a server. Redis makes counters shared between instances; it is
 * never needed to answer. While it cannot be reached every caller uses its own fallback at
 * once (commands are not queued, and fail within REDIS_TIMEOUT_MS), the outage is logged once
 * as a warning, and the connection keeps trying to come back.
 */
export interface SharedRedis {
  client: Redis;
  /** Settles once the first connection attempt has: a start waits for it before it serves. */
  firstAttempt: Promise<void>;
  /** Connected and answering: shared counters are to be used. */
  available(): boolean;
  /** The command's answer, or a rejection once REDIS_TIMEOUT_MS passes without one. */
  bounded<T>(command: Promise<T>): Promise<T>;
  /** A command failed (a timeout, a dropped connection): an outage until Redis is ready again. */
  failed(error: unknown): void;
  close(): Promise<void>;
}

export function connectRedis(url: string, log: FastifyBaseLogger): SharedRedis {
  const client = new Redis(url, {
    connectTimeout: REDIS_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_MAX_DELAY_MS),
  });
  let outage = false;
  const begin = (error: unknown) => {
    if (outage) return;
    outage = true;
    log.warn(
      { err: error },
      'Redis does not answer: sign-in attempts are counted in the database and rate limits in this process until it does',
    );
  };
  // Every connection error comes here (ioredis prints unhandled ones as plain text).
  client.on('error', begin);
  client.on('ready', () => {
    if (!outage) return;
    outage = false;
    log.info('Redis answers again: counters are shared again');
  });
  const firstAttempt = new Promise<void>((resolve) => {
    client.once('ready', resolve);
    client.once('error', () => resolve());
  });
  return {
    client,
    firstAttempt,
    available: () => client.status === 'ready' && !outage,
    bounded,
    failed(error) {
      begin(error);
      // A command that timed out on a connection that looks open (a network partition):
      // reconnect, so that the next calls fail at once instead of each waiting for the timeout.
      if (client.status === 'ready') client.disconnect(true);
    },
    async close() {
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

/**
 * Rejects a command that has not answered within REDIS_TIMEOUT_MS. The verdict waits for the
 * event loop's next look at the sockets (setImmediate runs after it): an answer that arrived
 * while the process was busy wins over the timer, so a loaded server does not count a
 * healthy Redis as gone. (ioredis's own commandTimeout decides before that look.)
 */
function bounded<T>(command: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(new Error(`Redis did not answer within ${REDIS_TIMEOUT_MS} ms`));
        }),
      REDIS_TIMEOUT_MS,
    );
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      finish();
    };
    command.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error as Error)),
    );
  });
}
