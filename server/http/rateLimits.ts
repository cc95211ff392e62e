import { createRequire } from 'node:module';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import fastifyRateLimit, {
  normalizeIP,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import { RATE_LIMIT_GROUPS, type Config, type RateLimitGroup } from '../config';
import type { SharedRedis } from '../lib/sharedRedis';
import { ApiError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rate-limit group this route counts against (`limitedAs`). */
    limit?: RateLimitGroup;
  }
}

/**
 * Route config that puts a route under a group's limit: every call that sends mail, accepts
 * an upload, searches or reports a death. The routes of a group share one counter per
 * client address. Every `/api/auth/*` route is in the `auth` group without asking.
 */
export const limitedAs = (group: RateLimitGroup) => ({ limit: group });

const AUTH_PREFIX = '/api/auth/';

// The plugin's own stores (it exports no name for them): the Redis one and the in-process one.
type StoreCtor = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  ...rest: unknown[]
) => FastifyRateLimitStore;
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreCtor;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreCtor;

/**
 * Counts in Redis while it answers, so that every instance counts together; in this process
 * while it does not (each instance then allows the limit on its own). Back to Redis as soon as
 * it answers again; what was counted meanwhile stays local.
 */
function sharedOrLocalStore(redis: SharedRedis, nameSpace: string): FastifyRateLimitStoreCtor {
  const storeOf = (shared: FastifyRateLimitStore, local: FastifyRateLimitStore) => ({
    incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>) {
      if (!redis.available()) return local.incr(key, callback, timeWindow, max);
      const counted = new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        shared.incr(
          key,
          (error, result) => (error ? reject(error) : resolve(result!)),
          timeWindow,
          max,
        ),
      );
      redis.bounded(counted).then(
        (result) => callback(null, result),
        (error: unknown) => {
          redis.failed(error);
          local.incr(key, callback, timeWindow, max);
        },
      );
    },
    child: (options: Parameters<FastifyRateLimitStore['child']>[0]) =>
      storeOf(shared.child(options), local.child(options)),
  });
  // The plugin calls `new Store(options)`: a function answering an object is such a
  // constructor, though its type names a class (the cast below).
  // Neither `continueExceeding` nor `exponentialBackoff` is used here: a window is a window.
  return function Store() {
    return storeOf(
      new RedisStore(false, false, redis.client, nameSpace),
      new LocalStore(false, false),
    );
  } as unknown as FastifyRateLimitStoreCtor;
}

/**
 * Registers @fastify/rate-limit once for the whole app (before any route), counting in Redis
 * when REDIS_URL is set so that every instance counts together, and in this process while
 * Redis does not answer. A refused call answers 429 `rate_limited` with `Retry-After`
 * (seconds) and a `detail`. The check runs in `onRequest`, before the body is read, so a
 * flood costs as little as it can.
 */
export async function installRateLimits(
  app: FastifyInstance,
  config: Config,
  redis: SharedRedis | undefined,
): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { store: sharedOrLocalStore(redis, `${config.redisPrefix}rate-limit:`) } : {}),
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, 'rate_limited', `too many requests; try again in ${context.after}`),
  });

  const limiters = new Map<RateLimitGroup, onRequestHookHandler>();
  for (const group of RATE_LIMIT_GROUPS) {
    const { max, windowMs } = config.rateLimits[group];
    if (max === 0) continue;
    const limiter = app.rateLimit({
      max,
      timeWindow: windowMs,
      keyGenerator: (request) => `${group}:${normalizeIP(request.ip)}`,
    });
    limiters.set(group, limiter as onRequestHookHandler);
  }

  app.addHook('onRoute', (route) => {
    const group = route.config?.limit ?? (route.url.startsWith(AUTH_PREFIX) ? 'auth' : undefined);
    const limiter = group && limiters.get(group);
    if (!limiter) return;
    const existing = route.onRequest ?? [];
    route.onRequest = [limiter, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
