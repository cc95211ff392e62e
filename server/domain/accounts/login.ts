import { and, eq, ne, sql } from 'drizzle-orm';
import { externalIdentities, users } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { AccountDeps } from './deps';
import { normalizeEmail } from './deps';
import { verifyAgainstDecoy, verifyPassword } from './passwords';
import { signIn, type SignInResult } from './signIn';

export const invalidCredentials = () =>
  new ApiError(401, 'invalid_credentials', 'email or password is wrong');

/**
 * Email and password sign-in. An unknown email, an account not yet activated and a wrong
 * password all answer the same 401 after the same scrypt work, and all count against the
 * same throttle keys (the submitted email and the client).
 */
export async function logIn(
  deps: AccountDeps,
  credentials: { email: string; password: string; client: string },
): Promise<SignInResult> {
  const attempt = { identifier: normalizeEmail(credentials.email), client: credentials.client };
  const now = deps.clock.now();
  await deps.throttle.admit(attempt, now);
  const [user] = await deps.db
    .select({ id: users.id, status: users.status, passwordHash: users.passwordHash })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${attempt.identifier}`, ne(users.status, 'deleted')))
    .limit(1);
  const passwordMatches = user?.passwordHash
    ? await verifyPassword(credentials.password, user.passwordHash)
    : await verifyAgainstDecoy(credentials.password);
  if (!user || !passwordMatches || user.status !== 'active') {
    await deps.throttle.recordFailure(attempt, now);
    throw invalidCredentials();
  }
  await deps.throttle.recordSuccess(attempt);
  return signIn(deps, user.id);
}

/**
 * GET /v1/tmp-return-jwt: signs in the member linked to a provider identity the server
 * verified; an identity with no account (or an inactive one) is refused.
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
  if (!linked) throw new ApiError(401, 'external_login_failed', 'no active account for identity');
  return signIn(deps, linked.userId);
}
