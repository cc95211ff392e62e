import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { DomainError, invalid } from '../errors';
import type { AccountDeps } from './accountDeps';
import { normalizeEmail } from './accountDeps';
import { verifyAgainstDecoy, verifyPassword } from './passwords';

/**
 * A wrong current password is a field error (422), not a 401: the client treats a 401 of a
 * signed-in call as an expired session and would sign the member out.
 */
const currentPasswordIncorrect = () =>
  invalid([{ field: 'current_password', code: 'current_password_incorrect' }]);

/**
 * Checks the member's current password under the sign-in throttle: the same counters (their
 * address and the client) as POST /v1/login, so guessing it here is no easier than there.
 * An account without a password (social login only) never matches; it sets one through the
 * password reset first.
 */
export async function verifyCurrentPassword(
  deps: AccountDeps,
  userId: string,
  currentPassword: string,
  client: string,
): Promise<{ email: string }> {
  const [user] = await deps.db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, 'active')));
  if (!user) throw new DomainError('unauthenticated', 'unauthorized', 'account is not active');
  // A signed-in member is not held back by a lock strangers caused; their own cap is smaller.
  const attempt = { identifier: normalizeEmail(user.email), client, unlocked: true };
  const admission = await deps.throttle.admit(attempt, deps.clock.now());
  const matches = user.passwordHash
    ? await verifyPassword(currentPassword, user.passwordHash)
    : await verifyAgainstDecoy(currentPassword);
  if (!matches) throw currentPasswordIncorrect();
  await admission.succeeded();
  return { email: user.email };
}

/** How recent a sign-in must be to stand in for a password the account does not have. */
export const RECENT_SIGN_IN_MS = 5 * 60 * 1000;

/** What a request offers as proof that the member themself is making the change. */
export interface ProofOffered {
  userId: string;
  /** `current_password` of the request body, if sent. */
  currentPassword: string | undefined;
  /** The sign-in the bearer token descends from (`auth_time`). */
  authTime: Date | undefined;
  client: string;
}

/**
 * The gate of every sensitive change (death administrators and their rule, note readers and
 * visibility, e-mail, password, deletion). An account with a password proves it again:
 * absent, 403 `reauthentication_required`; wrong, 422 on `current_password` (the sign-in
 * throttle counts it). An account without one (social login only) must have signed in within
 * RECENT_SIGN_IN_MS, else 403 `recent_sign_in_required`. Answers the member's address.
 */
export async function requireFreshProof(
  deps: AccountDeps,
  proof: ProofOffered,
): Promise<{ email: string }> {
  const [user] = await deps.db
    .select({ email: users.email, hasPassword: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, proof.userId), eq(users.status, 'active')));
  if (!user) throw new DomainError('unauthenticated', 'unauthorized', 'account is not active');
  if (user.hasPassword) {
    if (!proof.currentPassword) {
      throw new DomainError(
        'forbidden',
        'reauthentication_required',
        'this change needs the current password in current_password',
      );
    }
    return verifyCurrentPassword(deps, proof.userId, proof.currentPassword, proof.client);
  }
  const age = proof.authTime ? deps.clock.now().getTime() - proof.authTime.getTime() : Infinity;
  if (!(age < RECENT_SIGN_IN_MS)) {
    throw new DomainError(
      'forbidden',
      'recent_sign_in_required',
      'this change needs a sign-in within the last 5 minutes: sign in again',
    );
  }
  return { email: user.email };
}
