import { eq, sql } from 'drizzle-orm';
import { accountTokens, users } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { consumeAccountToken } from './accountTokens';
import type { AccountDeps } from './deps';
import { normalizeEmail } from './deps';
import { signIn, type SignInResult } from './signIn';

const activationInvalid = () =>
  new ApiError(400, 'activation_invalid', 'activation link is used, expired or unknown');

/**
 * GET /v1/user/confirm/{token}/{email}: spends the link (it must belong to that email),
 * activates the account and signs the member in.
 */
export async function activateAccount(
  deps: AccountDeps,
  token: string,
  email: string,
): Promise<SignInResult> {
  const belongsToEmail = sql`exists (select 1 from ${users} where ${users.id} = ${accountTokens.userId} and lower(${users.email}) = ${normalizeEmail(email)} and ${users.status} = 'inactive')`;
  const userId = await consumeAccountToken(
    deps.db,
    token,
    'activation',
    deps.clock,
    belongsToEmail,
  );
  if (!userId) throw activationInvalid();
  const now = deps.clock.now();
  await deps.db
    .update(users)
    .set({ status: 'active', activatedAt: now, updatedAt: now })
    .where(eq(users.id, userId));
  return signIn(deps, userId);
}
