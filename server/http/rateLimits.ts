import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { RATE_LIMIT_GROUPS, type Config, type RateLimitGroup } from '../config';
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

/**
 * Registers @fastify/rate-limit once for the whole app (before any route), with its Redis
 * store when REDIS_URL is set so that every instance counts together. A refused call answers
 * 429 `rate_limited` with `Retry-After` (seconds) and a `detail`. The check runs in
 * `onRequest`, before the body is read, so a flood costs as little as it can.
 */
export async function installRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 })
    : undefined;
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: `${config.redisPrefix}rate-limit:` } : {}),
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, 'rate_limited', `too many requests; try again in ${context.after}`),
  });
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));

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
