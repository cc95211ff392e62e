import { Redis } from 'ioredis';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { loginThrottle } from '../../db/schema';

/** A fixed-window counter: how many hits since the window opened, and when it closes. */
export interface Window {
  count: number;
  resetsAt: Date;
}

/**
 * Where login throttling keeps its counters: the database, or Redis so that several
 * instances share them. Time always comes from the caller (the injected clock), never from
 * the store, so both behave the same under a test clock.
 */
export interface ThrottleStore {
  /** Counts one hit; a closed window starts again at 1 and closes `windowMs` later. */
  hit(key: string, identifier: string | undefined, windowMs: number, now: Date): Promise<Window>;
  /** The open window of `key`, if any. */
  peek(key: string, now: Date): Promise<Window | undefined>;
  clear(key: string): Promise<void>;
  /** Drops every counter recorded for the identifier (a password reset lifts its locks). */
  clearIdentifier(identifier: string): Promise<void>;
  close(): Promise<void>;
}

export function databaseThrottleStore(db: Db): ThrottleStore {
  return {
    async hit(key, identifier, windowMs, now) {
      const resetsAt = new Date(now.getTime() + windowMs);
      const closed = sql`${loginThrottle.resetsAt} <= ${now.toISOString()}::timestamptz`;
      const [row] = await db
        .insert(loginThrottle)
        .values({ key, identifier: identifier ?? null, count: 1, resetsAt })
        .onConflictDoUpdate({
          target: loginThrottle.key,
          set: {
            count: sql`case when ${closed} then 1 else ${loginThrottle.count} + 1 end`,
            resetsAt: sql`case when ${closed} then excluded.resets_at else ${loginThrottle.resetsAt} end`,
          },
        })
        .returning({ count: loginThrottle.count, resetsAt: loginThrottle.resetsAt });
      return row!;
    },
    async peek(key, now) {
      const [row] = await db
        .select({ count: loginThrottle.count, resetsAt: loginThrottle.resetsAt })
        .from(loginThrottle)
        .where(eq(loginThrottle.key, key));
      return row && row.resetsAt > now ? row : undefined;
    },
    async clear(key) {
      await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
    },
    async clearIdentifier(identifier) {
      await db.delete(loginThrottle).where(eq(loginThrottle.identifier, identifier));
    },
    close: async () => undefined,
  };
}

// KEYS: counter, identifier index. ARGV: now ms, window ms, whether to index.
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local count = tonumber(redis.call('HGET', KEYS[1], 'count'))
local resets = tonumber(redis.call('HGET', KEYS[1], 'resets'))
if count == nil or resets <= now then
  count = 1
  resets = now + tonumber(ARGV[2])
else
  count = count + 1
end
redis.call('HSET', KEYS[1], 'count', count, 'resets', resets)
redis.call('PEXPIRE', KEYS[1], resets - now + 60000)
if ARGV[3] == '1' then
  redis.call('SADD', KEYS[2], KEYS[1])
  redis.call('PEXPIRE', KEYS[2], 86400000)
end
return {count, resets}
`;

/** Counters in Redis hashes, updated by one atomic script per hit. */
export function redisThrottleStore(url: string, prefix = 'shinobu:throttle:'): ThrottleStore {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const indexKey = (identifier: string) => `${prefix}index:${identifier}`;
  return {
    async hit(key, identifier, windowMs, now) {
      const [count, resets] = (await redis.eval(
        HIT_SCRIPT,
        2,
        prefix + key,
        indexKey(identifier ?? ''),
        now.getTime(),
        windowMs,
        identifier ? '1' : '0',
      )) as [number, number];
      return { count, resetsAt: new Date(resets) };
    },
    async peek(key, now) {
      const [count, resets] = await redis.hmget(prefix + key, 'count', 'resets');
      if (count === null || resets === null || Number(resets) <= now.getTime()) return undefined;
      return { count: Number(count), resetsAt: new Date(Number(resets)) };
    },
    async clear(key) {
      await redis.del(prefix + key);
    },
    async clearIdentifier(identifier) {
      const keys = await redis.smembers(indexKey(identifier));
      await redis.del(indexKey(identifier), ...keys);
    },
    async close() {
      await redis.quit();
    },
  };
}
