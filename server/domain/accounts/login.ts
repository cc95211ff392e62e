import { and, eq, ne, sql } from 'drizzle-orm';
import { externalIdentities, users } from '../../db/schema';
import { AccountMemorialized, offerRestoration } from '../deathDetection/restoration';
import { DomainError } from '../errors';
import type { AccountDeps } from './accountDeps';
import { normalizeEmail } from './accountDeps';
import { hashPassword, needsRehash, verifyAgainstDecoy, verifyPassword } from './passwords';
import { signIn, type SignInResult } from './signIn';
import { spendUnlockLink, unlockLinkMatches } from './unlockLinks';

export const invalidCredentials = () =>
  new DomainError('unauthenticated', 'invalid_credentials', 'email or password is wrong');

/**
 * Email and password sign-in. An unknown email, an account not yet activated and a wrong
 * password all answer the same 401 after the same password work, and all count against the
 * same throttle keys (the submitted email and the client). The attempt is counted before the
 * password is checked; a right one takes its count back. A sign-in that carries the
 * account's unlock link is not held back by the account's lock, and spends the link. A hash
 * of an older scheme or cost is replaced at the sign-in that proves the password.
 */
export async function logIn(
  deps: AccountDeps,
  credentials: { email: string; password: string; client: string; unlockToken?: string },
): Promise<SignInResult> {
  const identifier = normalizeEmail(credentials.email);
  const now = deps.clock.now();
  const unlocked = credentials.unlockToken
    ? await unlockLinkMatches(deps, credentials.unlockToken, identifier, now)
    : false;
  const admission = await deps.throttle
    .admit({ identifier, client: credentials.client, unlocked }, now)
    .catch((error: unknown) => {
      throw credentials.unlockToken ? withSpentUnlockLink(error) : error;
    });
  const [user] = await deps.db
    .select({ id: users.id, status: users.status, passwordHash: users.passwordHash })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${identifier}`, ne(users.status, 'deleted')))
    .limit(1);
  const passwordMatches = user?.passwordHash
    ? await verifyPassword(credentials.password, user.passwordHash)
    : await verifyAgainstDecoy(credentials.password);
  if (!user || !passwordMatches || user.status !== 'active') throw invalidCredentials();
  if (unlocked && !(await spendUnlockLink(deps, credentials.unlockToken!, now))) {
    throw spentUnlockLink();
  }
  await admission.succeeded();
  if (needsRehash(user.passwordHash!)) {
    await upgradePasswordHash(deps, user.id, user.passwordHash!, credentials.password);
  }
  try {
    return await signIn(deps, user.id);
  } catch (error) {
    // The password is proven: the way back for a member whose death was confirmed by mistake.
    if (error instanceof AccountMemorialized) await offerRestoration(deps, user.id, error);
    throw error;
  }
}

const spentUnlockLink = (retryAfterSeconds?: number) =>
  new DomainError(
    'locked',
    'account_locked',
    'locked after repeated failures; this unlock link was used already or has expired',
    retryAfterSeconds === undefined ? {} : { retryAfterSeconds },
  );

/** The lock's refusal, saying that the unlock link sent with the sign-in no longer works. */
function withSpentUnlockLink(error: unknown): unknown {
  if (!(error instanceof DomainError) || error.code !== 'account_locked') return error;
  return spentUnlockLink(error.retryAfterSeconds);
}

/** Replaces the stored hash, unless the password changed meanwhile. */
export async function upgradePasswordHash(
  deps: AccountDeps,
  userId: string,
  previousHash: string,
  password: string,
): Promise<void> {
  await deps.db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(and(eq(users.id, userId), eq(users.passwordHash, previousHash)));
}

/**
 * GET /v1/tmp-return-jwt and the provider's callback: signs in the member linked to a provider
 * identity the server verified; an identity with no account (or an inactive one) is refused.
 * A member whose death was released is refused too, and mailed the way back, as at a sign-in
 * with the password.
 */
export async function logInWithIdentity(
  deps: AccountDeps,
  identity: { provider: string; providerUserId: string },
): Promise<SignInResult> {
  const [linked] = await deps.db
    .select({ userId: externalIdentities.userId })
    .from(externalIdentities)
    .innerJoin(users, eq(users.id, externalIdentities.userId))
    .where(
      and(
        eq(externalIdentities.provider, identity.provider),
        eq(externalIdentities.providerUserId, identity.providerUserId),
        eq(users.status, 'active'),
      ),
    );
  if (!linked)
    throw new DomainError(
      'unauthenticated',
      'external_login_failed',
      'no active account for identity',
    );
  try {
    return await signIn(deps, linked.userId);
  } catch (error) {
    if (error instanceof AccountMemorialized) {
      await offerRestoration(deps, linked.userId, error, identity.provider);
    }
    throw error;
  }
}
