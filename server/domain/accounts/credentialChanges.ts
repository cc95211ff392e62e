import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { emailChanges, users } from '../../db/schema';
import { DomainError, conflict, invalid } from '../errors';
import { issueAccessToken } from '../accessTokens';
import { notifySensitiveChange } from './changeNotices';
import {
  EMAIL_CHANGE_TTL_MS,
  emailChangeLink,
  emailChangeMail,
  emailChangeTakenMail,
} from './credentialMails';
import type { AccountDeps } from './accountDeps';
import { normalizeEmail } from './accountDeps';
import { enqueueMail } from '../../mail/outbox';
import { requireFreshProof, verifyCurrentPassword } from './freshProof';
import { hashPassword } from './passwords';
import { issueRefreshToken, revokeAllOfUser } from './refreshTokens';
import { isUniqueViolation } from './registration';
import { hashSecretToken, newSecretToken } from './secretTokens';

/**
 * POST /v1/mypage/password: sets a new password after checking the current one, ends every
 * session of the member (all refresh-token families, this device's too) and starts a fresh
 * one for the caller, whose tokens it answers.
 */
export async function changePassword(
  deps: AccountDeps,
  change: { userId: string; currentPassword: string; newPassword: string; client: string },
): Promise<{ accessToken: string; refreshToken: string }> {
  const { email } = await verifyCurrentPassword(
    deps,
    change.userId,
    change.currentPassword,
    change.client,
  );
  const passwordHash = await hashPassword(change.newPassword);
  const sessionEpoch = await deps.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: deps.clock.now() })
      .where(eq(users.id, change.userId));
    return revokeAllOfUser(tx, change.userId, deps.clock);
  });
  await notifySensitiveChange(deps, { userId: change.userId, to: email, change: 'password' });
  return {
    accessToken: await issueAccessToken(
      change.userId,
      deps.authSecret,
      deps.clock,
      deps.clock.now(),
      sessionEpoch,
    ),
    refreshToken: await issueRefreshToken(deps.db, change.userId, deps.clock),
  };
}

async function addressTaken(deps: AccountDeps, email: string): Promise<boolean> {
  const [holder] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${normalizeEmail(email)}`, ne(users.status, 'deleted')))
    .limit(1);
  return holder !== undefined;
}

/**
 * POST /v1/mypage/email: after the current password, mails a single-use 24-hour link to the
 * new address; nothing changes until it is opened. An address that already has an account
 * gets a notice instead of a link, and the caller gets the same 202 either way, so the call
 * cannot be used to find out which addresses have accounts. A newer request replaces older
 * links of the member.
 */
export async function requestEmailChange(
  deps: AccountDeps,
  change: {
    userId: string;
    currentPassword: string | undefined;
    authTime: Date | undefined;
    newEmail: string;
    client: string;
  },
): Promise<void> {
  const { email } = await requireFreshProof(deps, change);
  const newEmail = change.newEmail.trim();
  if (normalizeEmail(newEmail) === normalizeEmail(email)) {
    throw invalid([{ field: 'new_email', code: 'email_unchanged' }]);
  }
  const now = deps.clock.now();
  const taken = await addressTaken(deps, newEmail);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(emailChanges)
      .set({ usedAt: now })
      .where(and(eq(emailChanges.userId, change.userId), isNull(emailChanges.usedAt)));
    if (taken) {
      const mail = emailChangeTakenMail(newEmail, `${deps.publicUrl}/login`);
      await enqueueMail(tx, { kind: 'email_change', ...mail }, deps.clock);
      return;
    }
    const token = newSecretToken();
    await tx.insert(emailChanges).values({
      tokenHash: hashSecretToken(token),
      userId: change.userId,
      newEmail,
      createdAt: now,
      expiresAt: new Date(now.getTime() + EMAIL_CHANGE_TTL_MS),
    });
    const mail = emailChangeMail(newEmail, emailChangeLink(deps.publicUrl, token));
    await enqueueMail(tx, { kind: 'email_change', userId: change.userId, ...mail }, deps.clock);
  });
}

/**
 * POST /v1/mypage/email/confirm: the link proves the new mailbox, so no sign-in is needed (it
 * may be opened on another device). One conditional UPDATE spends it. The old address is told,
 * with a link that puts it back.
 * If the address found an account in the meantime the opener — who holds that mailbox — is
 * told so (409); the link is spent either way.
 */
export async function confirmEmailChange(
  deps: AccountDeps,
  token: string,
): Promise<{ email: string }> {
  const now = deps.clock.now();
  const [change] = await deps.db
    .update(emailChanges)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailChanges.tokenHash, hashSecretToken(token)),
        isNull(emailChanges.usedAt),
        gt(emailChanges.expiresAt, now),
      ),
    )
    .returning({ userId: emailChanges.userId, newEmail: emailChanges.newEmail });
  const invalidLink = () =>
    new DomainError(
      'link_invalid',
      'email_change_invalid',
      'email change link is used, expired or unknown',
    );
  if (!change) throw invalidLink();
  const [before] = await deps.db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, change.userId), eq(users.status, 'active')));
  if (!before) throw invalidLink();
  try {
    await deps.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ email: change.newEmail, updatedAt: now })
        .where(eq(users.id, change.userId));
      // The old address hears of it, with a link that puts it back.
      await notifySensitiveChange(
        deps,
        {
          userId: change.userId,
          to: before.email,
          change: 'email',
          detail: `新しいアドレス: ${change.newEmail}`,
          restoreEmail: before.email,
        },
        tx,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict('email_unavailable', 'the address has an account by now');
    }
    throw error;
  }
  return { email: change.newEmail };
}
