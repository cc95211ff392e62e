import type { Redis } from 'ioredis';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { loginThrottle } from '../../db/schema';
import type { SharedRedis } from '../../lib/sharedRedis';

/** A fixed-window counter: how many hits since the window opened, and when it closes. */
export interface Window {
  count: number;
  resetsAt: Date;
}

/**
 * Where login throttling keeps its counters: the database, or Redis so that several
 * instances share them. Each hit is one atomic statement (one row upsert, one Redis script),
 * so parallel requests each see their own count. Time always comes from the caller (the
 * injected clock), never from the store, so both behave the same under a test clock.
 */
export interface ThrottleStore {
  /** Counts one hit; a closed window starts again at 1 and closes `windowMs` later. */
  hit(key: string, identifier: string | undefined, windowMs: number, now: Date): Promise<Window>;
  /** Takes one hit back from the open window of `key` (never below zero). */
  release(key: string, now: Date): Promise<void>;
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
    async release(key, now) {
      await db
        .update(loginThrottle)
        .set({ count: sql`${loginThrottle.count} - 1` })
        .where(
          and(
            eq(loginThrottle.key, key),
            gt(loginThrottle.count, 0),
            gt(loginThrottle.resetsAt, now),
          ),
        );
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
local resets = tonumber(redis.call('HGET', KEYS[1], 'resets'))
local count
if resets == nil or resets <= now then
  resets = now + tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'count', 1, 'resets', resets)
  count = 1
else
  count = redis.call('HINCRBY', KEYS[1], 'count', 1)
end
redis.call('PEXPIRE', KEYS[1], resets - now + 60000)
if ARGV[3] == '1' then
  redis.call('SADD', KEYS[2], KEYS[1])
  redis.call('PEXPIRE', KEYS[2], 86400000)
end
return {count, resets}
`;

// KEYS: counter. ARGV: now ms.
const RELEASE_SCRIPT = `
local resets = tonumber(redis.call('HGET', KEYS[1], 'resets'))
local count = tonumber(redis.call('HGET', KEYS[1], 'count'))
if resets ~= nil and resets > tonumber(ARGV[1]) and count > 0 then
  redis.call('HINCRBY', KEYS[1], 'count', -1)
end
return 0
`;

/**
 * Counters in Redis hashes; `prefix` keeps one deployment's keys apart from another's. The
 * connection is the server's (closed with it).
 */
export function redisThrottleStore(redis: Redis, prefix: string): ThrottleStore {
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
    async release(key, now) {
      await redis.eval(RELEASE_SCRIPT, 1, prefix + key, now.getTime());
    },
    async clearIdentifier(identifier) {
      const keys = await redis.smembers(indexKey(identifier));
      await redis.del(indexKey(identifier), ...keys);
    },
    close: async () => undefined,
  };
}

/**
 * Redis while it answers, so that instances count together; the database while it does not,
 * so that sign-in is never unlimited. What was counted in one store stays there: a window
 * that began during an outage is not carried into Redis when it returns. A password reset
 * clears both.
 */
export function sharedThrottleStore(redis: SharedRedis, prefix: string, db: Db): ThrottleStore {
  const shared = redisThrottleStore(redis.client, prefix);
  const fallback = databaseThrottleStore(db);
  async function either<T>(call: (store: ThrottleStore) => Promise<T>): Promise<T> {
    if (!redis.available()) return call(fallback);
    try {
      return await redis.bounded(call(shared));
    } catch (error) {
      redis.failed(error);
      return call(fallback);
    }
  }
  return {
    hit: (key, identifier, windowMs, now) =>
      either((store) => store.hit(key, identifier, windowMs, now)),
    release: (key, now) => either((store) => store.release(key, now)),
    async clearIdentifier(identifier) {
      await fallback.clearIdentifier(identifier);
      await either((store) => store.clearIdentifier(identifier));
    },
    close: async () => undefined,
  };
}
