import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { SexCode } from '../../../contract/rules/account';
import { nameReadingOf } from '../../../contract/rules/nameReading';
import { externalIdentities, memorialPageMembers, memorialPages, users } from '../../db/schema';
import type { Db } from '../../db/database';
import { invalid } from '../errors';
import { enqueueMail } from '../../mail/outbox';
import { OBJECT_NAME_PATTERN } from '../../storage/objectStore';
import { claimUpload, releaseUploads } from '../uploads/uploads';
import type { AccountDeps } from './accountDeps';
import { normalizeEmail } from './accountDeps';
import { ACTIVATION_TTL_MS, activationLink, activationMail, alreadyRegisteredMail } from './mails';
import { hashPassword } from './passwords';
import { createAccountToken } from './accountTokens';

/** A registration as the routes hand it over, already validated. */
export interface NewAccount {
  username: string;
  email: string;
  /** Absent only in the external-provider variant, where the provider vouches instead. */
  password?: string | undefined;
  firstName: string;
  lastName: string;
  firstNameKana: string;
  lastNameKana: string;
  address: string;
  birthdate: string;
  sexCode: SexCode;
  iconName?: string | null | undefined;
  adminPetId?: string | null | undefined;
  inflowId?: string | null | undefined;
  /** A provider identity the server verified itself, linked to the new account. */
  identity?: { provider: string; providerUserId: string } | undefined;
}

const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown): boolean {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: string }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}

/** The account already holding the address, if any (deleted accounts hold none). */
async function holderOf(deps: AccountDeps, email: string) {
  const [holder] = await deps.db
    .select({
      id: users.id,
      status: users.status,
      email: users.email,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${normalizeEmail(email)}`, ne(users.status, 'deleted')))
    .limit(1);
  return holder;
}

/**
 * Creates an inactive account with its own memorial page (the member as its admin) and mails
 * the activation link. An address whose owner has activated an account gets a notice instead,
 * and the caller cannot tell the two apart: both hash the password and send one mail.
 *
 * A registration nobody has activated yet proves nothing about the address, so it holds
 * nothing against a newer one: the newer registration replaces it whole (password, profile,
 * provider identity, links), and only the newest registration's link can activate the
 * address. Whoever reads the address's mail therefore ends up with the password they chose.
 */
export async function registerAccount(deps: AccountDeps, account: NewAccount): Promise<void> {
  // Only a name of the shape the upload signer hands out; never a path of the caller's choosing.
  if (account.iconName && !OBJECT_NAME_PATTERN.test(account.iconName)) {
    throw invalid([{ field: 'user_icon_url', code: 'invalid' }]);
  }
  const passwordHash = account.password ? await hashPassword(account.password) : null;
  // Two registrations of one address at the same moment: the unique index decides, and the
  // loser tries once more, now as the newer registration.
  for (let attempt = 1; ; attempt += 1) {
    const holder = await holderOf(deps, account.email);
    if (holder?.status === 'active') return mailAlreadyRegistered(deps, account.email, holder);
    try {
      return await createPendingAccount(deps, account, passwordHash, holder?.id);
    } catch (error) {
      if (attempt < 2 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/** In one transaction: the pending account `replacing` goes, the new one and its link come. */
async function createPendingAccount(
  deps: AccountDeps,
  account: NewAccount,
  passwordHash: string | null,
  replacing: string | undefined,
): Promise<void> {
  const now = deps.clock.now();
  const email = account.email.trim();
  await deps.db.transaction(async (tx) => {
    if (replacing) await discardPendingAccount(deps, tx, replacing);
    const [user] = await tx
      .insert(users)
      .values({
        email,
        username: account.username,
        passwordHash,
        lastName: account.lastName,
        firstName: account.firstName,
        lastNameKana: account.lastNameKana,
        firstNameKana: account.firstNameKana,
        nameReading: nameReadingOf(account),
        address: account.address,
        birthdate: account.birthdate,
        sexCode: account.sexCode,
        iconName: account.iconName ?? null,
        registrationAdminPetId: account.adminPetId ?? null,
        inflowId: account.inflowId ?? null,
        status: 'inactive',
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: users.id });
    const userId = user!.id;
    // The icon is an upload sent without an account; it becomes the new member's own.
    if (account.iconName) {
      await claimUpload(tx, {
        objectName: account.iconName,
        ownerUserId: null,
        newOwnerUserId: userId,
        use: { kind: 'member_icon', id: userId },
        field: 'user_icon_url',
      });
    }
    const [page] = await tx
      .insert(memorialPages)
      .values({
        ownerUserId: userId,
        type: 'self',
        lastName: account.lastName,
        firstName: account.firstName,
        lastNameKana: account.lastNameKana,
        firstNameKana: account.firstNameKana,
        createdBy: userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: memorialPages.id });
    await tx
      .insert(memorialPageMembers)
      .values({ memorialPageId: page!.id, userId, role: 'admin', createdAt: now });
    if (account.identity) {
      await tx.insert(externalIdentities).values({ ...account.identity, userId, createdAt: now });
    }
    await mailActivation(deps, tx, { id: userId, email });
  });
}

/**
 * Removes a registration never activated, with all it brought: its page, icon, provider
 * identity, links and unsent mails (the rows that name it go with it). Only while it is
 * still inactive; one activated meanwhile makes the new account's insert fail instead.
 */
async function discardPendingAccount(
  deps: Pick<AccountDeps, 'store'>,
  tx: Db,
  userId: string,
): Promise<void> {
  const [pending] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, 'inactive')))
    .for('update');
  if (!pending) return;
  await releaseUploads({ db: tx, store: deps.store }, { kind: 'member_icon', id: userId });
  await tx.delete(memorialPages).where(eq(memorialPages.ownerUserId, userId));
  await tx.delete(users).where(eq(users.id, userId));
}

/** A pending registration stays a day past its link's lifetime, so late clicks read as expired. */
const PENDING_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * The account sweep's share: registrations nobody activated within their link's lifetime go,
 * with everything they brought, so an address someone else registered keeps no trace of it.
 */
export async function sweepExpiredRegistrations(
  deps: Pick<AccountDeps, 'db' | 'store'>,
  now: Date,
): Promise<number> {
  const before = new Date(now.getTime() - ACTIVATION_TTL_MS - PENDING_GRACE_MS);
  const expired = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.status, 'inactive'), lt(users.createdAt, before)));
  for (const { id } of expired) {
    await deps.db.transaction((tx) => discardPendingAccount(deps, tx, id));
  }
  return expired.length;
}

/** A fresh activation link for the account, mailed through the outbox in the caller's `db`. */
async function mailActivation(deps: AccountDeps, db: Db, user: { id: string; email: string }) {
  const token = await createAccountToken(db, user.id, 'activation', ACTIVATION_TTL_MS, deps.clock);
  const [identity] = await db
    .select({ provider: externalIdentities.provider })
    .from(externalIdentities)
    .where(eq(externalIdentities.userId, user.id))
    .limit(1);
  const link = activationLink(deps.publicUrl, token, user.email, identity?.provider);
  const mail = activationMail(user.email, link);
  await enqueueMail(db, { kind: 'activation', userId: user.id, ...mail }, deps.clock);
}

/**
 * POST /v1/user/resend_activation: the member waiting for their activation mail asks for
 * another. A registration made within the activation link's lifetime gets a fresh link; any
 * other address gets nothing, and the caller cannot tell which. An older pending registration
 * has expired: only registering anew (which replaces it) can activate the address.
 */
export async function resendActivation(deps: AccountDeps, email: string): Promise<void> {
  const holder = await holderOf(deps, email);
  if (holder?.status !== 'inactive') return;
  if (holder.createdAt.getTime() + ACTIVATION_TTL_MS <= deps.clock.now().getTime()) return;
  await deps.db.transaction((tx) =>
    mailActivation(deps, tx, { id: holder.id, email: holder.email }),
  );
}

/** The owner of an activated account registered again is told so; nothing changes. */
async function mailAlreadyRegistered(
  deps: AccountDeps,
  email: string,
  holder: { id: string },
): Promise<void> {
  const mail = alreadyRegisteredMail(
    email.trim(),
    `${deps.publicUrl}/login`,
    `${deps.publicUrl}/password-reset`,
  );
  await enqueueMail(
    deps.db,
    { kind: 'already_registered', userId: holder.id, ...mail },
    deps.clock,
  );
}

/** True when the provider identity already belongs to an account (it cannot be linked twice). */
export async function identityLinked(
  deps: AccountDeps,
  provider: string,
  providerUserId: string,
): Promise<boolean> {
  const rows = await deps.db
    .select({ userId: externalIdentities.userId })
    .from(externalIdentities)
    .where(
      and(
        eq(externalIdentities.provider, provider),
        eq(externalIdentities.providerUserId, providerUserId),
      ),
    );
  return rows.length > 0;
}
