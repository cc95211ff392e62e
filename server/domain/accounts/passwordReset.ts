import { and, eq, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import { DomainError } from '../errors';
import { enqueueMail } from '../../mail/outbox';
import { consumeAccountToken, createAccountToken } from './accountTokens';
import type { AccountDeps } from './accountDeps';
import { normalizeEmail } from './accountDeps';
import { PASSWORD_RESET_TTL_MS, passwordResetLink, passwordResetMail } from './mails';
import { hashPassword } from './passwords';
import { revokeAllOfUser } from './refreshTokens';

/**
 * POST /v1/password_reset: mails a single-use link when the address has an activated account.
 * The caller always gets the same answer; nothing is mailed for an unknown address, nor for a
 * registration nobody has activated (it belongs to whoever registered, not yet to the
 * address: its registrant asks for the activation mail again, or registers anew).
 */
export async function requestPasswordReset(deps: AccountDeps, email: string): Promise<void> {
  const [user] = await deps.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${normalizeEmail(email)}`, eq(users.status, 'active')))
    .limit(1);
  if (!user) return;
  await deps.db.transaction(async (tx) => {
    const token = await createAccountToken(
      tx,
      user.id,
      'password_reset',
      PASSWORD_RESET_TTL_MS,
      deps.clock,
    );
    const mail = passwordResetMail(user.email, passwordResetLink(deps.publicUrl, token));
    await enqueueMail(tx, { kind: 'password_reset', userId: user.id, ...mail }, deps.clock);
  });
}

/**
 * POST /v1/password_reset/confirm: sets the new password, ends every session of the member
 * (all refresh-token families) and lifts every sign-in lock on their address.
 */
export async function confirmPasswordReset(
  deps: AccountDeps,
  token: string,
  password: string,
): Promise<void> {
  const passwordHash = await hashPassword(password);
  const userId = await consumeAccountToken(deps.db, token, 'password_reset', deps.clock);
  const now = deps.clock.now();
  if (!userId)
    throw new DomainError(
      'link_invalid',
      'reset_invalid',
      'reset link is used, expired or unknown',
    );
  const [user] = await deps.db
    .update(users)
    .set({ passwordHash, updatedAt: now })
    .where(and(eq(users.id, userId), eq(users.status, 'active')))
    .returning({ email: users.email });
  await revokeAllOfUser(deps.db, userId, deps.clock);
  if (user) await deps.throttle.liftLocks(normalizeEmail(user.email));
}
