import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { unlockLinks, users } from '../../db/schema';
import { enqueueMail } from '../../mail/outbox';
import type { AccountDeps } from './accountDeps';
import { unlockLink, unlockMail } from './mails';
import { hashSecretToken, newSecretToken } from './secretTokens';

/**
 * Mails the owner of a just-locked account a link that lets one sign-in of theirs past the
 * lock while it lasts, so that a stranger guessing at the account never keeps its owner out. An
 * address with no account gets nothing (its lock looks the same from outside).
 */
export async function mailUnlockLink(
  deps: Pick<AccountDeps, 'db' | 'clock' | 'publicUrl'>,
  identifier: string,
  until: Date,
): Promise<void> {
  const [user] = await deps.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${identifier}`, ne(users.status, 'deleted')))
    .limit(1);
  if (!user) return;
  const token = newSecretToken();
  await deps.db.transaction(async (tx) => {
    await tx.insert(unlockLinks).values({
      tokenHash: hashSecretToken(token),
      userId: user.id,
      createdAt: deps.clock.now(),
      expiresAt: until,
    });
    const mail = unlockMail(user.email, unlockLink(deps.publicUrl, token));
    await enqueueMail(tx, { kind: 'unlock', userId: user.id, ...mail }, deps.clock);
  });
}

/** True when `token` is an unused, unexpired unlock link of the account with this address. */
export async function unlockLinkMatches(
  deps: Pick<AccountDeps, 'db'>,
  token: string,
  identifier: string,
  now: Date,
): Promise<boolean> {
  const [row] = await deps.db
    .select({ userId: unlockLinks.userId })
    .from(unlockLinks)
    .innerJoin(users, eq(users.id, unlockLinks.userId))
    .where(
      and(
        eq(unlockLinks.tokenHash, hashSecretToken(token)),
        isNull(unlockLinks.usedAt),
        gt(unlockLinks.expiresAt, now),
        sql`lower(${users.email}) = ${identifier}`,
      ),
    );
  return row !== undefined;
}

/**
 * Spends the link at the sign-in it let past the lock, so that it works once. One
 * conditional UPDATE: of two sign-ins with one link at the same moment, one gets it.
 */
export async function spendUnlockLink(
  deps: Pick<AccountDeps, 'db'>,
  token: string,
  now: Date,
): Promise<boolean> {
  const spent = await deps.db
    .update(unlockLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(unlockLinks.tokenHash, hashSecretToken(token)),
        isNull(unlockLinks.usedAt),
        gt(unlockLinks.expiresAt, now),
      ),
    )
    .returning({ userId: unlockLinks.userId });
  return spent.length > 0;
}
