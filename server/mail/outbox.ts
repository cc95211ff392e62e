import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { DEFAULT_MAIL_RETRY, type MailRetryConfig } from '../config';
import type { Db } from '../db/database';
import { mailOutbox } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { Metrics } from '../metrics';
import type { MailMessage, Mailer } from './mailer';

/** A mail to enqueue: what it is about, who it is for and, when it is a member, who they are. */
export interface OutboxMail extends MailMessage {
  /** What the mail is about (`activation`, `password_reset`, `check_in`, …): logs, metrics. */
  kind: string;
  /** The member the mail is for, when it is one. */
  userId?: string;
  /** The member whose death the mail is about: withdrawn unsent if the case is cancelled. */
  aboutUserId?: string;
  /** The letter delivery the mail announces. */
  deliveryId?: string;
  /** The hash of the token its receiver reports the mail with (server/routes/mailReports.ts). */
  reportTokenHash?: string;
}

/**
 * Puts mails in the outbox; the job runner sends them. Pass the transaction of the change that
 * causes the mails, so the two are written together or not at all. Answers the mails' ids.
 */
export async function enqueueMails(db: Db, mails: OutboxMail[], clock: Clock): Promise<string[]> {
  if (mails.length === 0) return [];
  const now = clock.now();
  const ids = mails.map(() => randomUUID());
  await db.insert(mailOutbox).values(
    mails.map((mail, index) => ({
      id: ids[index]!,
      kind: mail.kind,
      userId: mail.userId ?? null,
      aboutUserId: mail.aboutUserId ?? null,
      deliveryId: mail.deliveryId ?? null,
      reportTokenHash: mail.reportTokenHash ?? null,
      toEmail: mail.to,
      subject: mail.subject,
      text: mail.text,
      link: mail.link ?? null,
      createdAt: now,
      nextAttemptAt: now,
    })),
  );
  return ids;
}

/** enqueueMails for one mail: `enqueueMail(tx, { kind: 'activation', userId, ...mail }, clock)`. */
export async function enqueueMail(db: Db, mail: OutboxMail, clock: Clock): Promise<string> {
  const [id] = await enqueueMails(db, [mail], clock);
  return id!;
}

/**
 * The member is alive after all: the mails about their death that were not sent yet are
 * withdrawn (kept, never sent). Pass the transaction that cancels the case; answers how many.
 */
export async function withdrawMailsAbout(db: Db, userId: string, now: Date): Promise<number> {
  const withdrawn = await db
    .update(mailOutbox)
    .set({ withdrawnAt: now, text: null, link: null })
    .where(
      and(
        eq(mailOutbox.aboutUserId, userId),
        isNull(mailOutbox.sentAt),
        isNull(mailOutbox.failedAt),
        isNull(mailOutbox.withdrawnAt),
      ),
    )
    .returning({ id: mailOutbox.id });
  return withdrawn.length;
}

export const MAIL_BATCH_SIZE = 50;
/** A mail is retried until it is this old, then marked failed for the operator. */
export const MAIL_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Wait before the next try after `attempts` failures: by default 1, 2, 4, … minutes, at most
 * 6 hours (MAIL_RETRY_FIRST_MS, MAIL_RETRY_MAX_MS).
 */
export function retryDelayMs(
  attempts: number,
  retry: MailRetryConfig = DEFAULT_MAIL_RETRY,
): number {
  return Math.min(retry.firstRetryMs * 2 ** Math.max(attempts - 1, 0), retry.maxRetryMs);
}

/** The Message-ID of a mail: the same on every try, so a mail sent twice is recognisable. */
export function messageIdOf(mailId: string, publicUrl: string): string {
  return `<${mailId}@${new URL(publicUrl).hostname}>`;
}

export interface OutboxDeps {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
  metrics: Metrics;
  log: { error(details: object, message: string): void };
  /** Backoff and claim; the defaults when absent. */
  retry?: MailRetryConfig;
}

export interface MailRunResult {
  sent: number;
  failed: number;
}

/**
 * Sends one batch of due mails. The claim moves next_attempt_at a lease ahead, so another
 * instance (or this one after a crash) picks a mail up only when its sender has not finished;
 * a crash between sending and recording it sends that mail again with the same Message-ID.
 */
export async function sendPendingMails(
  deps: OutboxDeps,
  batchSize = MAIL_BATCH_SIZE,
): Promise<MailRunResult> {
  const { db, clock } = deps;
  const retry = deps.retry ?? DEFAULT_MAIL_RETRY;
  const now = clock.now();
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          isNull(mailOutbox.sentAt),
          isNull(mailOutbox.failedAt),
          isNull(mailOutbox.withdrawnAt),
          lte(mailOutbox.nextAttemptAt, now),
        ),
      )
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(mailOutbox)
      .set({
        attempts: sql`${mailOutbox.attempts} + 1`,
        // A mail not marked sent by the end of its claim (its sender crashed) is tried again.
        nextAttemptAt: new Date(now.getTime() + retry.claimMs),
      })
      .where(
        inArray(
          mailOutbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });

  const result: MailRunResult = { sent: 0, failed: 0 };
  for (const mail of claimed) {
    try {
      await deps.mailer.send({
        to: mail.toEmail,
        subject: mail.subject,
        text: mail.text ?? '',
        link: mail.link ?? undefined,
        messageId: messageIdOf(mail.id, deps.publicUrl),
      });
      // The text and link go once sent: reset, activation and claim links are bearer tokens.
      await db
        .update(mailOutbox)
        .set({ sentAt: clock.now(), text: null, link: null, lastError: null })
        .where(eq(mailOutbox.id, mail.id));
      deps.metrics.mailsSent.inc({ kind: mail.kind });
      result.sent += 1;
    } catch (error) {
      const failedAt = clock.now();
      const giveUp = failedAt.getTime() - mail.createdAt.getTime() >= MAIL_RETRY_WINDOW_MS;
      const lastError = (error as Error).message.slice(0, 500);
      await db
        .update(mailOutbox)
        .set({
          lastError,
          nextAttemptAt: new Date(failedAt.getTime() + retryDelayMs(mail.attempts, retry)),
          failedAt: giveUp ? failedAt : null,
        })
        .where(eq(mailOutbox.id, mail.id));
      if (giveUp) {
        deps.metrics.mailsFailed.inc({ kind: mail.kind });
        deps.log.error(
          { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, lastError },
          'mail given up after a day of retries',
        );
      }
      result.failed += 1;
    }
  }
  return result;
}

/** Sends batches until no mail is due now, or until `stopping`; answers the totals. */
export async function sendAllPendingMails(
  deps: OutboxDeps,
  stopping?: AbortSignal,
): Promise<MailRunResult> {
  const total: MailRunResult = { sent: 0, failed: 0 };
  while (!stopping?.aborted) {
    const run = await sendPendingMails(deps);
    total.sent += run.sent;
    total.failed += run.failed;
    if (run.sent + run.failed < MAIL_BATCH_SIZE) return total;
  }
  return total;
}

/** Mails not yet sent nor given up on, and the age in seconds of the oldest (0: none). */
export async function outboxBacklog(
  db: Db,
  clock: Clock,
): Promise<{ pending: number; oldestSeconds: number }> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      oldest: sql<Date | string | null>`min(${mailOutbox.createdAt})`,
    })
    .from(mailOutbox)
    .where(
      and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt), isNull(mailOutbox.withdrawnAt)),
    );
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
  return {
    pending: row?.pending ?? 0,
    oldestSeconds: oldest === undefined ? 0 : Math.max(0, (clock.now().getTime() - oldest) / 1000),
  };
}
