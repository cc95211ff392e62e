import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { deathCheckIns, deathSettings, identityVerifications, users } from '../../db/schema';
import { recordAudits } from './audit';
import { checkInLink, newCheckInToken } from './checkIns';
import type { DeathDeps } from './deathDeps';
import { checkInMail } from './mails';
import { enqueueMails } from '../../mail/outbox';
import { raiseSuspicion } from './suspicion';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Certificates handed to the revocation checker at a time. */
const REVOCATION_BATCH = 1000;
/** Check-ins mailed or escalated per transaction. */
const CHECK_IN_BATCH = 1000;

export interface SweepResult {
  certificatesExpired: number;
  certificatesRevoked: number;
  checkInsSent: number;
  checkInsEscalated: number;
}

/**
 * The periodic suspicion sweep: certificates found expired or revoked, inactivity check-ins
 * mailed, unanswered check-ins escalated. Each finding raises a suspicion with its source.
 * Every step claims its rows atomically, so instances running it together never double up.
 */
export async function runSuspicionSweep(deps: DeathDeps): Promise<SweepResult> {
  const certificates = await checkCertificates(deps);
  const checkInsSent = await sendCheckIns(deps);
  const checkInsEscalated = await escalateUnansweredCheckIns(deps);
  return { ...certificates, checkInsSent, checkInsEscalated };
}

async function checkCertificates(deps: DeathDeps) {
  const now = deps.clock.now();
  // Expiry: one statement over the partial index of ACTIVE certificates by notAfter.
  const expired = await deps.db
    .update(identityVerifications)
    .set({ status: 'REVOKED', revokedReason: 'expired', revokedAt: now, updatedAt: now })
    .where(
      and(eq(identityVerifications.status, 'ACTIVE'), lte(identityVerifications.notAfter, now)),
    )
    .returning({ userId: identityVerifications.userId });
  for (const { userId } of expired) {
    await raiseSuspicion(deps, userId, { source: 'certificate', detail: { reason: 'expired' } });
  }

  let revoked = 0;
  if (deps.revocation.active) {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const batch = await deps.db
        .select({
          userId: identityVerifications.userId,
          fingerprint: identityVerifications.fingerprint,
          serialNumber: identityVerifications.serialNumber,
        })
        .from(identityVerifications)
        .where(
          and(eq(identityVerifications.status, 'ACTIVE'), gt(identityVerifications.userId, after)),
        )
        .orderBy(asc(identityVerifications.userId))
        .limit(REVOCATION_BATCH);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!.userId;
      const found = await deps.revocation.revoked(
        batch.map((row) => ({
          userId: row.userId,
          fingerprint: row.fingerprint ?? '',
          serialNumber: row.serialNumber ?? '',
        })),
      );
      if (found.size === 0) continue;
      const newlyRevoked = await deps.db
        .update(identityVerifications)
        .set({ status: 'REVOKED', revokedReason: 'revoked', revokedAt: now, updatedAt: now })
        .where(
          and(
            eq(identityVerifications.status, 'ACTIVE'),
            inArray(identityVerifications.fingerprint, [...found]),
          ),
        )
        .returning({ userId: identityVerifications.userId });
      for (const { userId } of newlyRevoked) {
        await raiseSuspicion(deps, userId, {
          source: 'certificate',
          detail: { reason: 'revoked' },
        });
      }
      revoked += newlyRevoked.length;
    }
  }
  return { certificatesExpired: expired.length, certificatesRevoked: revoked };
}

/**
 * Members who chose a check-in period and showed no sign of life for that long get a mail:
 * no sign-in, token refresh, answered check-in, cancel or settings change. Members with an
 * open check-in or a case are skipped.
 */
async function sendCheckIns(deps: DeathDeps): Promise<number> {
  let sent = 0;
  for (;;) {
    const now = deps.clock.now();
    const answerBy = new Date(now.getTime() + deps.settings.checkInAnswerDays * DAY_MS);
    const mails = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .select({ userId: deathSettings.userId, email: users.email })
        .from(deathSettings)
        .innerJoin(users, eq(users.id, deathSettings.userId))
        .where(
          and(
            isNotNull(deathSettings.checkInPeriodDays),
            eq(users.status, 'active'),
            sql`greatest(${deathSettings.aliveAt}, ${users.lastActiveAt}, ${users.activatedAt},
                  (select max(r.created_at) from refresh_tokens r where r.user_id = ${deathSettings.userId}))
                < ${now.toISOString()}::timestamptz - make_interval(days => ${deathSettings.checkInPeriodDays})`,
            sql`not exists (select 1 from death_check_ins c where c.user_id = ${deathSettings.userId}
                  and c.answered_at is null and c.escalated_at is null)`,
            sql`not exists (select 1 from death_cases d where d.user_id = ${deathSettings.userId}
                  and d.state <> 'cancelled')`,
          ),
        )
        .orderBy(asc(deathSettings.userId))
        .limit(CHECK_IN_BATCH)
        .for('update', { of: deathSettings, skipLocked: true });
      if (rows.length === 0) return [];
      // One insert per table for the whole batch: the sweep's cost stays a few statements.
      const mails = rows.map((row) => ({ ...row, ...newCheckInToken() }));
      const mailIds = await enqueueMails(
        tx,
        mails.map((m) => ({
          kind: 'check_in',
          userId: m.userId,
          ...checkInMail(
            m.email,
            checkInLink(deps.publicUrl, m.token),
            deps.settings.checkInAnswerDays,
          ),
        })),
        deps.clock,
      );
      await tx.insert(deathCheckIns).values(
        mails.map((m, index) => ({
          tokenHash: m.tokenHash,
          userId: m.userId,
          sentAt: now,
          answerBy,
          mailId: mailIds[index]!,
        })),
      );
      await recordAudits(
        tx,
        mails.map((m) => ({
          userId: m.userId,
          action: 'check_in_sent' as const,
          source: 'inactivity' as const,
          detail: { answerBy: answerBy.toISOString() },
          at: now,
        })),
      );
      return mails;
    });
    sent += mails.length;
    if (mails.length < CHECK_IN_BATCH) return sent;
  }
}

/** Check-ins unanswered by their answer-by time raise an inactivity suspicion. */
async function escalateUnansweredCheckIns(deps: DeathDeps): Promise<number> {
  let escalated = 0;
  for (;;) {
    const now = deps.clock.now();
    const claimed = await deps.db.transaction(async (tx) => {
      const due = await tx
        .select({
          tokenHash: deathCheckIns.tokenHash,
          userId: deathCheckIns.userId,
          sentAt: deathCheckIns.sentAt,
        })
        .from(deathCheckIns)
        .innerJoin(users, eq(users.id, deathCheckIns.userId))
        .where(
          and(
            isNull(deathCheckIns.answeredAt),
            isNull(deathCheckIns.escalatedAt),
            lte(deathCheckIns.answerBy, now),
            // The answer window runs from when the mail left: never while it is undelivered.
            sql`(${deathCheckIns.mailId} is null or exists (select 1 from mail_outbox m
                  where m.id = ${deathCheckIns.mailId} and m.sent_at is not null
                  and m.sent_at + (${deathCheckIns.answerBy} - ${deathCheckIns.sentAt})
                    <= ${now.toISOString()}::timestamptz))`,
          ),
        )
        .limit(CHECK_IN_BATCH)
        .for('update', { of: deathCheckIns, skipLocked: true });
      if (due.length > 0) {
        await tx
          .update(deathCheckIns)
          .set({ escalatedAt: now })
          .where(
            inArray(
              deathCheckIns.tokenHash,
              due.map((row) => row.tokenHash),
            ),
          );
      }
      return due;
    });
    for (const row of claimed) {
      await raiseSuspicion(deps, row.userId, {
        source: 'inactivity',
        detail: { checkInSentAt: row.sentAt.toISOString() },
      });
    }
    escalated += claimed.length;
    if (claimed.length < CHECK_IN_BATCH) return escalated;
  }
}
