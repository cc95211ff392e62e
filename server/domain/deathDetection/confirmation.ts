import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database';
import { tokyoToday } from '../../../contract/rules/account';
import {
  deathAdministrators,
  deathAuditLog,
  deathCases,
  deathConfirmations,
  deathSignals,
  identityChallenges,
  memorialPages,
  users,
  type Relationship,
} from '../../db/schema';
import { DomainError, conflict, invalid, notFound } from '../errors';
import { enqueueMail } from '../../mail/outbox';
import { recordAudit } from './audit';
import { signatureMatches } from '../../x509/certificates';
import type { DeathDeps } from './deathDeps';
import { requireActiveCertificate, spendChallenge, usableChallenge } from './identity';
import { graceStartedMailToMember } from './mails';
import {
  confirmationsNeeded,
  currentCaseOf,
  isAdministratorOf,
  ruleOf,
  type DeathState,
} from './settings';
import { ownMemorialPage } from '../ownPage';

/** How long the app has to sign a confirmation's signContent. */
export const SIGN_REQUEST_TTL_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The administrator who reported a signal (none for other sources). */
const reporters = alias(users, 'reporters');

/**
 * An administrator may confirm a death only this long after being named: whoever takes over
 * an account and names themself cannot declare its member dead before the member's mail
 * about the change has had time to be read and reported.
 */
export const ADMINISTRATOR_WAIT_MS = 7 * DAY_MS;

async function requireNamedLongEnough(deps: DeathDeps, administratorId: string, userId: string) {
  const [named] = await deps.db
    .select({ at: deathAdministrators.createdAt })
    .from(deathAdministrators)
    .where(
      and(
        eq(deathAdministrators.userId, userId),
        eq(deathAdministrators.administratorUserId, administratorId),
      ),
    );
  const allowedFrom = named && new Date(named.at.getTime() + ADMINISTRATOR_WAIT_MS);
  if (!allowedFrom || allowedFrom > deps.clock.now()) {
    throw new DomainError(
      'forbidden',
      'administrator_too_recent',
      `an administrator may confirm 7 days after being named (from ${allowedFrom?.toISOString()})`,
    );
  }
}

export interface ConfirmationFacts {
  death_suspected_user_id: string;
  date_of_death: string;
  relationship: Relationship;
}

/**
 * What both steps check: the caller is an administrator (else 404), holds an ACTIVE
 * certificate (else 403), the member's case is `suspected` and not yet confirmed by the
 * caller (else 409), and the date is possible (else 422).
 */
async function checkConfirmable(
  deps: DeathDeps,
  administratorId: string,
  facts: ConfirmationFacts,
) {
  const userId = facts.death_suspected_user_id;
  if (!(await isAdministratorOf(deps.db, administratorId, userId))) throw notFound('user');
  await requireNamedLongEnough(deps, administratorId, userId);
  const certificate = await requireActiveCertificate(deps, administratorId);
  const current = await currentCaseOf(deps.db, userId);
  if (!current) throw conflict('not_suspected', 'no suspicion is open for this member');
  if (current.state === 'grace') throw conflict('already_confirmed', 'the death is confirmed');
  if (current.state === 'released') throw conflict('already_released', 'the death is released');
  const given = await deps.db
    .select({
      administratorUserId: deathConfirmations.administratorUserId,
      dateOfDeath: deathConfirmations.dateOfDeath,
    })
    .from(deathConfirmations)
    .where(eq(deathConfirmations.caseId, current.id))
    .orderBy(asc(deathConfirmations.createdAt));
  if (given.some((confirmation) => confirmation.administratorUserId === administratorId))
    throw conflict('already_confirmed_by_you', 'you have confirmed this already');
  const [member] = await deps.db
    .select({ birthdate: users.birthdate })
    .from(users)
    .where(eq(users.id, userId));
  if (facts.date_of_death > tokyoToday(deps.clock.now())) {
    throw invalid([{ field: 'date_of_death', code: 'date_in_future' }]);
  }
  if (member?.birthdate && facts.date_of_death < member.birthdate) {
    throw invalid([{ field: 'date_of_death', code: 'date_before_birth' }]);
  }
  const first = given[0];
  if (first && first.dateOfDeath !== facts.date_of_death) {
    throw invalid([{ field: 'date_of_death', code: 'date_differs_from_first_confirmation' }]);
  }
  return { certificate, caseId: current.id };
}

/** The text the administrator's app signs; every fact of the confirmation is in it. */
function signContentOf(administratorId: string, facts: ConfirmationFacts, expiresAt: Date): string {
  return [
    'shinobu-death-confirmation/v1',
    `subject=${facts.death_suspected_user_id}`,
    `administrator=${administratorId}`,
    `date_of_death=${facts.date_of_death}`,
    `relationship=${facts.relationship}`,
    `nonce=${randomBytes(18).toString('base64url')}`,
    `expires_at=${expiresAt.toISOString()}`,
  ].join('\n');
}

export async function createSignRequest(
  deps: DeathDeps,
  administratorId: string,
  facts: ConfirmationFacts,
) {
  await checkConfirmable(deps, administratorId, facts);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SIGN_REQUEST_TTL_MS);
  const signContent = signContentOf(administratorId, facts, expiresAt);
  const [row] = await deps.db
    .insert(identityChallenges)
    .values({
      userId: administratorId,
      purpose: 'death_confirmation',
      content: signContent,
      subjectUserId: facts.death_suspected_user_id,
      dateOfDeath: facts.date_of_death,
      relationship: facts.relationship,
      createdAt: now,
      expiresAt,
    })
    .returning({ id: identityChallenges.id });
  return { signTag: row!.id, signContent, expiresAt };
}

export interface ConfirmationInput extends ConfirmationFacts {
  sign_tag: string;
  sign_content: string;
  signature: string;
}

/**
 * Records an administrator's signed confirmation. When the confirmations reach the member's
 * rule the case enters its grace period; the member is told at once (they can still sign in).
 */
export async function confirmDeath(
  deps: DeathDeps,
  administratorId: string,
  input: ConfirmationInput,
) {
  const userId = input.death_suspected_user_id;
  const { certificate, caseId } = await checkConfirmable(deps, administratorId, input);
  const now = deps.clock.now();
  const request = await usableChallenge(
    deps.db,
    { id: input.sign_tag, userId: administratorId, purpose: 'death_confirmation', now },
    'sign_tag',
    { unknown: 'sign_tag_unknown', expired: 'sign_tag_expired', used: 'sign_tag_used' },
  );
  if (
    request.content !== input.sign_content ||
    request.subjectUserId !== userId ||
    request.dateOfDeath !== input.date_of_death ||
    request.relationship !== input.relationship
  ) {
    throw invalid([{ field: 'sign_content', code: 'sign_content_mismatch' }]);
  }
  if (!signatureMatches(certificate.pem, input.sign_content, input.signature)) {
    throw invalid([{ field: 'signature', code: 'signature_invalid' }]);
  }
  const rule = await ruleOf(deps.db, userId);
  await deps.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ state: deathCases.state })
      .from(deathCases)
      .where(eq(deathCases.id, caseId))
      .for('update');
    if (locked?.state !== 'suspected')
      throw conflict('not_suspected', 'the case changed meanwhile');
    await spendChallenge(tx, request.id, now, 'sign_tag', 'sign_tag_used');
    const recorded = await tx
      .insert(deathConfirmations)
      .values({
        caseId,
        administratorUserId: administratorId,
        dateOfDeath: input.date_of_death,
        relationship: input.relationship,
        signTag: request.id,
        signContent: input.sign_content,
        signature: input.signature,
        certificateFingerprint: certificate.fingerprint,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: deathConfirmations.id });
    if (recorded.length === 0) throw conflict('already_confirmed_by_you', 'confirmed already');
    await recordAudit(tx, {
      userId,
      caseId,
      action: 'confirmation_recorded',
      actorUserId: administratorId,
      detail: {
        dateOfDeath: input.date_of_death,
        relationship: input.relationship,
        certificateFingerprint: certificate.fingerprint,
      },
      at: now,
    });
    const [given] = await tx
      .select({ value: count() })
      .from(deathConfirmations)
      .where(eq(deathConfirmations.caseId, caseId));
    if ((given?.value ?? 0) < confirmationsNeeded(rule)) return undefined;
    const graceEndsAt = new Date(now.getTime() + deps.settings.gracePeriodDays * DAY_MS);
    await tx
      .update(deathCases)
      .set({ state: 'grace', graceEndsAt, dateOfDeath: input.date_of_death })
      .where(eq(deathCases.id, caseId));
    await recordAudit(tx, {
      userId,
      caseId,
      action: 'grace_started',
      detail: { graceEndsAt: graceEndsAt.toISOString(), rule },
      at: now,
    });
    const [member] = await tx
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    if (member) {
      const mail = graceStartedMailToMember(member.email, `${deps.publicUrl}/login`, graceEndsAt);
      await enqueueMail(
        tx,
        { kind: 'grace_started', userId, aboutUserId: userId, ...mail },
        deps.clock,
      );
    }
    return graceEndsAt;
  });
  return deathCaseView(deps, administratorId, userId);
}

/** Every signal of a case, oldest first, with its reporter, reason and document. */
function signalsOf(db: Db, caseId: string) {
  return db
    .select({
      source: deathSignals.source,
      createdAt: deathSignals.createdAt,
      reporterUserId: deathSignals.reporterUserId,
      reporterLastName: reporters.lastName,
      reporterFirstName: reporters.firstName,
      note: sql<string | null>`${deathSignals.detail} ->> 'note'`,
      documentImageName: sql<string | null>`${deathSignals.detail} ->> 'documentImageName'`,
    })
    .from(deathSignals)
    .leftJoin(reporters, eq(reporters.id, deathSignals.reporterUserId))
    .where(eq(deathSignals.caseId, caseId))
    .orderBy(asc(deathSignals.createdAt));
}

/** The member's most recently cancelled case, if any. */
async function lastCancelledCaseOf(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(deathCases)
    .where(and(eq(deathCases.userId, userId), eq(deathCases.state, 'cancelled')))
    .orderBy(desc(deathCases.closedAt))
    .limit(1);
  return row;
}

/** How many unsent mails the case's cancellation or restoration withdrew (its audit entry records it). */
async function mailsWithdrawnBy(db: Db, caseId: string): Promise<number> {
  const [entry] = await db
    .select({ detail: deathAuditLog.detail })
    .from(deathAuditLog)
    .where(
      and(
        eq(deathAuditLog.caseId, caseId),
        inArray(deathAuditLog.action, ['suspicion_cancelled', 'restored']),
      ),
    );
  const count = entry?.detail?.mailsWithdrawn;
  return typeof count === 'number' ? count : 0;
}

/** The case as its administrators see it; anyone else is 404. */
export async function deathCaseView(deps: DeathDeps, callerId: string, userId: string) {
  if (!(await isAdministratorOf(deps.db, callerId, userId))) throw notFound('user');
  const [member] = await deps.db
    .select({
      userId: users.id,
      lastName: users.lastName,
      firstName: users.firstName,
      memorialPageId: memorialPages.id,
    })
    .from(users)
    .leftJoin(memorialPages, ownMemorialPage())
    .where(eq(users.id, userId));
  if (!member) throw notFound('user');
  const rule = await ruleOf(deps.db, userId);
  const current = await currentCaseOf(deps.db, userId);
  const signals = current ? await signalsOf(deps.db, current.id) : [];
  // The administrator keeps seeing the last report and its outcome after the member cancels it
  // or restores their account.
  const cancelled = current ? undefined : await lastCancelledCaseOf(deps.db, userId);
  const shown = current ?? cancelled;
  const confirmations = shown
    ? await deps.db
        .select({
          administratorUserId: deathConfirmations.administratorUserId,
          lastName: users.lastName,
          firstName: users.firstName,
          relationship: deathConfirmations.relationship,
          dateOfDeath: deathConfirmations.dateOfDeath,
          createdAt: deathConfirmations.createdAt,
        })
        .from(deathConfirmations)
        .innerJoin(users, eq(users.id, deathConfirmations.administratorUserId))
        .where(eq(deathConfirmations.caseId, shown.id))
        .orderBy(asc(deathConfirmations.createdAt))
    : [];
  const state: DeathState = current ? (current.state as DeathState) : 'alive';
  return {
    ...member,
    state,
    rule,
    confirmationsNeeded: confirmationsNeeded(rule),
    suspectedAt: current?.openedAt ?? null,
    graceEndsAt: current?.graceEndsAt ?? null,
    releasedAt: current?.releasedAt ?? null,
    dateOfDeath: current?.dateOfDeath ?? null,
    signals,
    confirmations,
    lastCancelled: cancelled
      ? {
          suspectedAt: cancelled.openedAt,
          cancelledAt: cancelled.closedAt!,
          cancelledBy:
            cancelled.closedBy === 'sign_in' || cancelled.closedBy === 'restored'
              ? (cancelled.closedBy as 'sign_in' | 'restored')
              : ('cancel' as const),
          signals: await signalsOf(deps.db, cancelled.id),
          mailsWithdrawn: await mailsWithdrawnBy(deps.db, cancelled.id),
        }
      : null,
    canConfirm:
      state === 'suspected' &&
      !confirmations.some((confirmation) => confirmation.administratorUserId === callerId),
  };
}
