import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { users } from '../../db/schema';
import { SESSION_ENDED_CHANNEL } from './refreshTokens';

/** Members whose session state one instance keeps in memory; past it the oldest entry goes. */
const MAX_CACHED_MEMBERS = 100_000;

interface MemberSessionState {
  /** users.session_epoch: a token naming a lower one was issued before its sessions ended. */
  epoch: number;
  /** Only an active member's tokens are honoured (a deleted member's never again). */
  active: boolean;
  /** performance.now() when it was read. */
  readAt: number;
}

export interface SessionCheck {
  /** True while a token of `userId` issued at session epoch `tokenEpoch` may be used. */
  stands(userId: string, tokenEpoch: number): Promise<boolean>;
  /** Starts hearing of ended sessions (NOTIFY); until then every check reads the database. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Whether an access token's session still stands, asked on every authenticated request. The
 * answer per member is kept in memory and dropped the moment any instance ends the member's
 * sessions (revokeAllOfUser's NOTIFY); while the listening connection is down nothing is kept,
 * and `ttlMs` bounds what a lost notification could leave behind.
 */
export function createSessionCheck(database: Database, ttlMs: number): SessionCheck {
  const cache = new Map<string, MemberSessionState>();
  let listening = false;
  // Raised by every ended session: a read that began before one must not be kept.
  let generation = 0;
  let stopListening: (() => Promise<void>) | undefined;

  const forgetAll = () => {
    generation += 1;
    cache.clear();
  };

  async function read(userId: string): Promise<MemberSessionState | undefined> {
    const startedAt = generation;
    const [row] = await database.db
      .select({ epoch: users.sessionEpoch, status: users.status })
      .from(users)
      .where(eq(users.id, userId));
    if (!row) return undefined;
    const state = { epoch: row.epoch, active: row.status === 'active', readAt: performance.now() };
    if (listening && startedAt === generation && ttlMs > 0) {
      if (cache.size >= MAX_CACHED_MEMBERS) cache.delete(cache.keys().next().value!);
      cache.set(userId, state);
    }
    return state;
  }

  return {
    async stands(userId, tokenEpoch) {
      const cached = cache.get(userId);
      // A token newer than what is kept (a fresh sign-in after the sessions ended) reads again.
      const state =
        cached && cached.epoch >= tokenEpoch && performance.now() - cached.readAt < ttlMs
          ? cached
          : await read(userId);
      return state !== undefined && state.active && state.epoch === tokenEpoch;
    },
    async start() {
      stopListening = await database.listen(SESSION_ENDED_CHANNEL, {
        onMessage: (userId) => {
          generation += 1;
          cache.delete(userId);
        },
        onListening: (now) => {
          // Notifications may have been missed while the connection was down.
          forgetAll();
          listening = now;
        },
      });
    },
    async close() {
      listening = false;
      forgetAll();
      await stopListening?.();
    },
  };
}
