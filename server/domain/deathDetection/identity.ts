import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  identityChallenges,
  identityVerifications,
  users,
  type IdentityStatusValue,
} from '../../db/schema';
import { DomainError, invalid, notFound } from '../errors';
import { areConnected } from '../connections';
import { checkCertificate, signatureMatches } from '../../x509/certificates';
import type { DeathDeps } from './deathDeps';

/** How long the app has to register a certificate after the challenge. */
export const REGISTRATION_CHALLENGE_TTL_MS = 15 * 60 * 1000;

export interface IdentityStatus {
  authStatus: IdentityStatusValue;
  certificate: { fingerprint: string; subjectEmail: string; notAfter: Date } | null;
  revokedReason: 'expired' | 'revoked' | null;
}

type VerificationRow = typeof identityVerifications.$inferSelect;

/**
 * The status as it stands at `now` (docs/death-detection.md, "States"): an ACTIVE
 * certificate past its notAfter reads REVOKED (expired) before the periodic check persists
 * it, and a PROGRESS whose challenge lapsed reads as what it was before.
 */
export function effectiveStatus(row: VerificationRow | undefined, now: Date): IdentityStatus {
  if (!row) return { authStatus: 'INITIAL', certificate: null, revokedReason: null };
  const certificate =
    row.fingerprint && row.subjectEmail && row.notAfter
      ? { fingerprint: row.fingerprint, subjectEmail: row.subjectEmail, notAfter: row.notAfter }
      : null;
  if (row.status === 'ACTIVE' && row.notAfter && row.notAfter <= now) {
    return { authStatus: 'REVOKED', certificate, revokedReason: 'expired' };
  }
  if (row.status === 'PROGRESS' && (!row.progressUntil || row.progressUntil <= now)) {
    return row.revokedReason
      ? { authStatus: 'REVOKED', certificate, revokedReason: row.revokedReason }
      : { authStatus: 'INITIAL', certificate: null, revokedReason: null };
  }
  return { authStatus: row.status, certificate, revokedReason: row.revokedReason };
}

async function verificationOf(db: Db, userId: string): Promise<VerificationRow | undefined> {
  const [row] = await db
    .select()
    .from(identityVerifications)
    .where(eq(identityVerifications.userId, userId));
  return row;
}

export async function identityStatus(deps: DeathDeps, userId: string): Promise<IdentityStatus> {
  return effectiveStatus(await verificationOf(deps.db, userId), deps.clock.now());
}

/** The avatar badge of the caller or one of their connections; anyone else is 404. */
export async function isCertificated(
  deps: DeathDeps,
  callerId: string,
  userId: string,
): Promise<boolean> {
  if (callerId !== userId && !(await areConnected(deps.db, callerId, userId))) {
    throw notFound('user');
  }
  return (await identityStatus(deps, userId)).authStatus === 'ACTIVE';
}

/** The PEM of the member's certificate when their status is ACTIVE at `now`. */
export async function activeCertificateOf(
  deps: DeathDeps,
  userId: string,
): Promise<{ pem: string; fingerprint: string } | undefined> {
  const row = await verificationOf(deps.db, userId);
  const status = effectiveStatus(row, deps.clock.now());
  if (status.authStatus !== 'ACTIVE' || !row?.certificatePem || !row.fingerprint) return undefined;
  return { pem: row.certificatePem, fingerprint: row.fingerprint };
}

/**
 * Starts a registration: a single-use challenge the app signs with the new key. The status
 * becomes PROGRESS, except that an ACTIVE certificate stays in force until replaced.
 */
export async function startRegistration(deps: DeathDeps, userId: string) {
  requireTrustAnchors(deps);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + REGISTRATION_CHALLENGE_TTL_MS);
  const [member] = await deps.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!member) throw notFound('user');
  const challenge = `shinobu-identity-registration/v1\nuser=${userId}\nnonce=${randomBytes(24).toString('base64url')}`;
  const [row] = await deps.db
    .insert(identityChallenges)
    .values({ userId, purpose: 'registration', content: challenge, createdAt: now, expiresAt })
    .returning({ id: identityChallenges.id });
  const current = effectiveStatus(await verificationOf(deps.db, userId), now);
  if (current.authStatus !== 'ACTIVE') {
    await deps.db
      .insert(identityVerifications)
      .values({ userId, status: 'PROGRESS', progressUntil: expiresAt, updatedAt: now })
      .onConflictDoUpdate({
        target: identityVerifications.userId,
        set: { status: 'PROGRESS', progressUntil: expiresAt, updatedAt: now },
      });
  }
  return { challengeId: row!.id, challenge, mailAddress: member.email, expiresAt };
}

/** A server-issued text for `purpose`, checked for owner, expiry and single use. */
export async function usableChallenge(
  db: Db,
  input: { id: string; userId: string; purpose: 'registration' | 'death_confirmation'; now: Date },
  field: string,
  codes: { unknown: string; expired: string; used: string },
) {
  const [challenge] = /^[0-9a-f-]{36}$/i.test(input.id)
    ? await db
        .select()
        .from(identityChallenges)
        .where(
          and(
            eq(identityChallenges.id, input.id),
            eq(identityChallenges.userId, input.userId),
            eq(identityChallenges.purpose, input.purpose),
          ),
        )
    : [];
  if (!challenge) throw invalid([{ field, code: codes.unknown }]);
  if (challenge.usedAt) throw invalid([{ field, code: codes.used }]);
  if (challenge.expiresAt <= input.now) throw invalid([{ field, code: codes.expired }]);
  return challenge;
}

/** Marks a challenge used; a concurrent use of the same one loses with `usedCode`. */
export async function spendChallenge(
  db: Db,
  id: string,
  now: Date,
  field: string,
  usedCode: string,
): Promise<void> {
  const spent = await db
    .update(identityChallenges)
    .set({ usedAt: now })
    .where(and(eq(identityChallenges.id, id), isNull(identityChallenges.usedAt)))
    .returning({ id: identityChallenges.id });
  if (spent.length === 0) throw invalid([{ field, code: usedCode }]);
}

export interface CertificateInput {
  challenge_id: string;
  certificate_pem: string;
  chain_pem?: string | undefined;
  signature: string;
}

/** Verifies and records the certificate the app registered: the status becomes ACTIVE. */
export async function registerCertificate(
  deps: DeathDeps,
  userId: string,
  input: CertificateInput,
): Promise<IdentityStatus> {
  requireTrustAnchors(deps);
  const now = deps.clock.now();
  const challenge = await usableChallenge(
    deps.db,
    { id: input.challenge_id, userId, purpose: 'registration', now },
    'challenge_id',
    { unknown: 'challenge_unknown', expired: 'challenge_expired', used: 'challenge_used' },
  );
  const checked = checkCertificate(input.certificate_pem, input.chain_pem, deps.trustAnchors, now);
  if (typeof checked === 'string') throw invalid([{ field: 'certificate_pem', code: checked }]);
  const revoked = await deps.revocation.revoked([
    { userId, fingerprint: checked.fingerprint, serialNumber: checked.certificate.serialNumber },
  ]);
  if (revoked.size > 0) throw invalid([{ field: 'certificate_pem', code: 'certificate_revoked' }]);
  const [member] = await deps.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  const email = member?.email.toLowerCase() ?? '';
  if (!checked.emails.includes(email)) {
    throw invalid([{ field: 'certificate_pem', code: 'certificate_email_mismatch' }]);
  }
  if (!signatureMatches(input.certificate_pem, challenge.content, input.signature)) {
    throw invalid([{ field: 'signature', code: 'signature_invalid' }]);
  }
  const values = {
    status: 'ACTIVE' as const,
    progressUntil: null,
    certificatePem: checked.certificate.toString(),
    fingerprint: checked.fingerprint,
    serialNumber: checked.certificate.serialNumber,
    subjectEmail: email,
    notAfter: checked.notAfter,
    revokedReason: null,
    revokedAt: null,
    verifiedAt: now,
    updatedAt: now,
  };
  await deps.db.transaction(async (tx) => {
    await spendChallenge(tx, challenge.id, now, 'challenge_id', 'challenge_used');
    await tx
      .insert(identityVerifications)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: identityVerifications.userId, set: values });
  });
  return identityStatus(deps, userId);
}

/** Production without IDENTITY_TRUST_ANCHORS cannot verify anyone. */
function requireTrustAnchors(deps: DeathDeps): void {
  if (deps.trustAnchors.length === 0) {
    throw new DomainError(
      'unavailable',
      'identity_verification_unconfigured',
      'IDENTITY_TRUST_ANCHORS is not configured',
    );
  }
}

/** Refuses a caller whose own certificate is not ACTIVE (403 certificate_required). */
export async function requireActiveCertificate(deps: DeathDeps, userId: string) {
  const certificate = await activeCertificateOf(deps, userId);
  if (!certificate) {
    throw new DomainError(
      'forbidden',
      'certificate_required',
      'an ACTIVE identity certificate is required',
    );
  }
  return certificate;
}
