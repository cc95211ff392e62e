import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { accountTokens, externalIdentities, users } from '../../db/schema';
import { DomainError } from '../errors';
import { redeemPetAdminLink } from '../memorial/invitations';
import { consumeAccountToken } from './accountTokens';
import type { AccountDeps } from './accountDeps';
import { normalizeEmail } from './accountDeps';
import { verifyPassword } from './passwords';
import type { VerifiedAssertion } from './providerAssertion';
import { hashSecretToken } from './secretTokens';
import { signIn, type SignInResult } from './signIn';

const activationInvalid = () =>
  new DomainError(
    'link_invalid',
    'activation_invalid',
    'activation link is used, expired or unknown',
  );

/**
 * A registration with a password is activated only by someone who knows that password: the
 * mailbox alone proves the address, not who registered it.
 */
const passwordRequired = () =>
  new DomainError(
    'link_invalid',
    'activation_password_required',
    'this registration is completed with the password chosen when registering',
  );
const passwordMismatch = () =>
  new DomainError(
    'link_invalid',
    'activation_password_mismatch',
    'the password is not the one this registration was made with; if you did not make it, register anew',
  );

/**
 * A registration through a provider is activated only by someone signed in with that
 * provider's identity, in the browser that opened the link.
 */
const providerRequired = (provider: string) =>
  new DomainError(
    'link_invalid',
    'activation_provider_required',
    `this registration is completed by signing in with ${provider} from the link's page`,
  );
const providerMismatch = () =>
  new DomainError(
    'link_invalid',
    'activation_provider_mismatch',
    'the provider sign-in is not the one this registration was made with, or not of this browser',
  );
const assertionUsed = () =>
  new DomainError(
    'link_invalid',
    'activation_provider_used',
    'this provider sign-in was used already; sign in with the provider again',
  );

/** What the opener of an activation link gives besides the link. */
export interface ActivationProof {
  /** The password chosen when registering. */
  password?: string;
  /**
   * A provider assertion: its identity once verified with this browser's binding cookie, or
   * null when one was given that this server did not issue to this browser.
   */
  assertion?: VerifiedAssertion | null;
}

/**
 * GET /v1/user/confirm/{token}/{email} and its POST with the registration's password: spends
 * the link (it must belong to that email), activates the account and signs the member in.
 *
 * The link proves only that its opener reads the address's mail. Whoever registered the
 * address chose the password, so a registration with a password is activated only with that
 * password (checked before the link is spent; a wrong one spends nothing): the owner of a
 * mailbox who opens the mail of a registration a stranger made cannot hand the stranger an
 * account, and must register themself, which replaces the stranger's.
 *
 * A registration in pet mode carried a pet-admin link (admin_pet_id); it is redeemed here,
 * once the address is proven, so that an account nobody activates never becomes an admin of
 * the pet's page.
 */
export async function activateAccount(
  deps: AccountDeps,
  token: string,
  email: string,
  proof: ActivationProof = {},
): Promise<SignInResult> {
  const now = deps.clock.now();
  const belongsToEmail = sql`exists (select 1 from ${users} where ${users.id} = ${accountTokens.userId} and lower(${users.email}) = ${normalizeEmail(email)} and ${users.status} = 'inactive')`;
  const [pending] = await deps.db
    .select({ userId: users.id, passwordHash: users.passwordHash })
    .from(accountTokens)
    .innerJoin(users, eq(users.id, accountTokens.userId))
    .where(
      and(
        eq(accountTokens.tokenHash, hashSecretToken(token)),
        eq(accountTokens.purpose, 'activation'),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
        belongsToEmail,
      ),
    );
  if (!pending) throw activationInvalid();
  let spent: VerifiedAssertion | undefined;
  if (pending.passwordHash !== null) {
    const { password } = proof;
    if (password === undefined || password === '') throw passwordRequired();
    if (!(await verifyPassword(password, pending.passwordHash))) throw passwordMismatch();
  } else {
    spent = await spendProviderProof(deps, pending.userId, proof.assertion);
  }
  const userId = await consumeAccountToken(
    deps.db,
    token,
    'activation',
    deps.clock,
    belongsToEmail,
  );
  if (!userId) {
    await spent?.giveBack(deps.db);
    throw activationInvalid();
  }
  const [activated] = await deps.db
    .update(users)
    .set({ status: 'active', activatedAt: now, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({ adminPetId: users.registrationAdminPetId });
  // An expired or used link makes no admin; the account is activated all the same.
  if (activated?.adminPetId) await redeemPetAdminLink(deps, activated.adminPetId, userId);
  return signIn(deps, userId);
}

/**
 * A registration without a password was made with a provider identity: the opener proves it
 * with an assertion of that identity, bound to their browser, spent here once. Answers the
 * spent assertion (given back if the activation fails after all); undefined when the
 * registration has no identity to prove.
 */
async function spendProviderProof(
  deps: AccountDeps,
  userId: string,
  assertion: VerifiedAssertion | null | undefined,
): Promise<VerifiedAssertion | undefined> {
  const identities = await deps.db
    .select({
      provider: externalIdentities.provider,
      providerUserId: externalIdentities.providerUserId,
    })
    .from(externalIdentities)
    .where(eq(externalIdentities.userId, userId));
  if (identities.length === 0) return undefined;
  if (assertion === undefined) throw providerRequired(identities[0]!.provider);
  const matches = identities.some(
    (identity) =>
      assertion !== null &&
      identity.provider === assertion.provider &&
      identity.providerUserId === assertion.providerUserId,
  );
  if (!assertion || !matches) throw providerMismatch();
  if (!(await assertion.spend(deps.db))) throw assertionUsed();
  return assertion;
}
