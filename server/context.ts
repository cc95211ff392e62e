import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/database';
import type { Clock } from './lib/clock';
import type { SessionCheck } from './domain/accounts/sessionCheck';
import type { Mailer } from './mail/mailer';
import type { SharedRedis } from './lib/sharedRedis';
import type { Metrics } from './metrics';
import type { ObjectStore } from './storage/objectStore';

/** What every route and job is given: configuration and the outside world, each injectable. */
export interface AppContext {
  config: Config;
  database: Database;
  clock: Clock;
  /** The wire the outbox sends through; everything else enqueues (mail/outbox.ts). */
  mailer: Mailer;
  metrics: Metrics;
  /** Whether a member's access token still stands (their sessions not ended since). */
  sessions: SessionCheck;
  store: ObjectStore;
  /** Shared counters between instances (REDIS_URL); never needed to answer. */
  redis: SharedRedis | undefined;
  log: FastifyBaseLogger;
}
