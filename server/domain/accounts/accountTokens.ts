import { and, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { accountTokens } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { hashSecretToken, newSecretToken } from './secretTokens';

type Purpose = (typeof accountTokens.$inferSelect)['purpose'];

/** Records a single-use mailed link for the member and answers its secret token. */
export async function createAccountToken(
  db: Db,
  userId: string,
  purpose: Purpose,
  ttlMs: number,
  clock: Clock,
): Promise<string> {
  const token = newSecretToken();
  const now = clock.now();
  await db.insert(accountTokens).values({
    tokenHash: hashSecretToken(token),
    userId,
    purpose,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  return token;
}

/**
 * Spends a mailed link: answers its member when the token is known, of this purpose, unused
 * and unexpired (and meets `extra`), else undefined. One UPDATE, so a link works only once
 * even when opened twice at the same moment.
 */
export async function consumeAccountToken(
  db: Db,
  token: string,
  purpose: Purpose,
  clock: Clock,
  extra?: SQL,
): Promise<string | undefined> {
  const now = clock.now();
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, hashSecretToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
        extra,
      ),
    )
    .returning({ userId: accountTokens.userId });
  return row?.userId;
}
