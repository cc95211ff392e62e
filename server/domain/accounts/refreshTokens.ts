import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { refreshTokens, users } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { hashSecretToken, newSecretToken } from './secretTokens';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A refresh token lives 30 days from its issue; every use replaces it with a fresh one. */
export const REFRESH_TOKEN_TTL_MS = 30 * DAY_MS;

/**
 * A spent token presented again this soon after its use is the same device, not a thief: two
 * tabs or a page and the next one it opens refreshing at once, or an answer lost on a weak
 * connection and the call sent again. It gets a successor of its own in the same family.
 */
export const REFRESH_REUSE_GRACE_MS = 60 * 1000;

/** However often it is refreshed, a session ends this long after its sign-in. */
export const SESSION_ABSOLUTE_TTL_MS = 90 * DAY_MS;

/** When a session that started at `signedInAt` and was last renewed `now` ends. */
export function sessionEndOf(signedInAt: Date, now: Date): Date {
  return new Date(
    Math.min(now.getTime() + REFRESH_TOKEN_TTL_MS, signedInAt.getTime() + SESSION_ABSOLUTE_TTL_MS),
  );
}

/**
 * Starts a new family (one per sign-in, `family` absent) or continues one, and answers the
 * opaque token.
 */
export async function issueRefreshToken(
  db: Db,
  userId: string,
  clock: Clock,
  family?: { id: string; signedInAt: Date },
): Promise<string> {
  const token = newSecretToken();
  const now = clock.now();
  const signedInAt = family?.signedInAt ?? now;
  await db.insert(refreshTokens).values({
    tokenHash: hashSecretToken(token),
    familyId: family?.id ?? randomUUID(),
    userId,
    createdAt: now,
    expiresAt: sessionEndOf(signedInAt, now),
    signedInAt,
  });
  return token;
}

export type RotationResult =
  | {
      outcome: 'rotated';
      userId: string;
      refreshToken: string;
      signedInAt: Date;
      /** The member's session epoch, for the access token that goes with the new pair. */
      sessionEpoch: number;
    }
  | { outcome: 'invalid' }
  | { outcome: 'reused' };

/**
 * Spends `token` and issues its successor in the same family. One conditional UPDATE decides
 * which of two concurrent uses wins, so no lock beyond the row is taken. The loser, or the
 * same token sent again within REFRESH_REUSE_GRACE_MS, gets a successor too; presenting a
 * spent token later means it was copied: the whole family is revoked.
 */
export async function rotateRefreshToken(
  db: Db,
  token: string,
  clock: Clock,
): Promise<RotationResult> {
  const now = clock.now();
  const tokenHash = hashSecretToken(token);
  const memberActive = sql`exists (select 1 from ${users} where ${users.id} = ${refreshTokens.userId} and ${users.status} = 'active')`;
  const family = {
    userId: refreshTokens.userId,
    familyId: refreshTokens.familyId,
    signedInAt: refreshTokens.signedInAt,
    sessionEpoch: sql<number>`(select ${users.sessionEpoch} from ${users} where ${users.id} = ${refreshTokens.userId})`,
  };
  const [spent] = await db
    .update(refreshTokens)
    .set({ spentAt: now })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.spentAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
        memberActive,
      ),
    )
    .returning(family);
  const [resent] = spent
    ? [spent]
    : await db
        .select(family)
        .from(refreshTokens)
        .where(
          and(
            eq(refreshTokens.tokenHash, tokenHash),
            gt(refreshTokens.spentAt, new Date(now.getTime() - REFRESH_REUSE_GRACE_MS)),
            isNull(refreshTokens.revokedAt),
            gt(refreshTokens.expiresAt, now),
            memberActive,
          ),
        );
  if (resent) {
    const { userId, familyId, signedInAt, sessionEpoch } = resent;
    const refreshToken = await issueRefreshToken(db, userId, clock, { id: familyId, signedInAt });
    return { outcome: 'rotated', userId, refreshToken, signedInAt, sessionEpoch };
  }
  const [known] = await db
    .select({ familyId: refreshTokens.familyId, spentAt: refreshTokens.spentAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash));
  if (!known?.spentAt) return { outcome: 'invalid' };
  await revokeFamily(db, known.familyId, clock);
  return { outcome: 'reused' };
}

export async function revokeFamily(db: Db, familyId: string, clock: Clock): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: clock.now() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Sign-out: revokes the family `token` belongs to; an unknown token changes nothing. */
export async function revokeFamilyOf(db: Db, token: string, clock: Clock): Promise<void> {
  const [known] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashSecretToken(token)));
  if (known) await revokeFamily(db, known.familyId, clock);
}

/** The NOTIFY channel that carries the id of a member whose sessions just ended. */
export const SESSION_ENDED_CHANNEL = 'session_ended';

/**
 * After a password change or reset, a change report, deletion or sign-out everywhere: every
 * session of the member ends. Its refresh tokens are revoked and its session epoch raised,
 * which refuses every access token issued before; every instance hears of it by NOTIFY when
 * the caller's transaction commits. Answers the new epoch, for the tokens of a fresh session.
 */
export async function revokeAllOfUser(db: Db, userId: string, clock: Clock): Promise<number> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: clock.now() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  const [raised] = await db
    .update(users)
    .set({ sessionEpoch: sql`${users.sessionEpoch} + 1` })
    .where(eq(users.id, userId))
    .returning({ sessionEpoch: users.sessionEpoch });
  await db.execute(sql`select pg_notify(${SESSION_ENDED_CHANNEL}, ${userId})`);
  return raised?.sessionEpoch ?? 0;
}
