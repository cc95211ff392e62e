import { eq, sql } from 'drizzle-orm';
import { accountTokens, users } from '../../db/schema';
import { DomainError } from '../errors';
import { redeemPetAdminLink } from '../memorial/invitations';
import { consumeAccountToken } from './accountTokens';
import type { AccountDeps } from './accountDeps';
import { normalizeEmail } from './accountDeps';
import { signIn, type SignInResult } from './signIn';

const activationInvalid = () =>
  new DomainError(
    'link_invalid',
    'activation_invalid',
    'activation link is used, expired or unknown',
  );

/**
 * GET /v1/user/confirm/{token}/{email}: spends the link (it must belong to that email),
 * activates the account and signs the member in. A registration in pet mode carried a
 * pet-admin link (admin_pet_id); it is redeemed here, once the address is proven, so that an
 * account nobody activates never becomes an admin of the pet's page.
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
  const [activated] = await deps.db
    .update(users)
    .set({ status: 'active', activatedAt: now, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({ adminPetId: users.registrationAdminPetId });
  // An expired or used link makes no admin; the account is activated all the same.
  if (activated?.adminPetId) await redeemPetAdminLink(deps, activated.adminPetId, userId);
  return signIn(deps, userId);
}
