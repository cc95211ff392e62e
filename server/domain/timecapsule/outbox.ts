import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { letterMailOutbox } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';
import type { Clock } from '../clock';

export const MAIL_BATCH_SIZE = 50;
/** After this many failed attempts a mail is marked failed and logged. */
export const MAX_MAIL_ATTEMPTS = 10;
/** A claimed mail not marked sent by then (the sender crashed) is tried again. */
export const MAIL_LEASE_MS = 5 * 60 * 1000;
const FIRST_RETRY_MS = 60 * 1000;
const MAX_RETRY_MS = 6 * 60 * 60 * 1000;

/** Wait before the next try after `attempts` failures: 1, 2, 4, … minutes, at most 6 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(attempts - 1, 0), MAX_RETRY_MS);
}

export interface MailRunResult {
  sent: number;
  failed: number;
}

/**
 * Sends one batch of pending letter mails. The claim moves next_attempt_at a lease ahead, so
 * another instance (or this one after a crash) picks a mail up only when its sender has not
 * finished; a crash between sending and recording it may send that one mail twice (mail is
 * at least once; the delivery itself is exactly once).
 */
export async function sendPendingLetterMails(
  db: Db,
  mailer: Mailer,
  clock: Clock,
  batchSize = MAIL_BATCH_SIZE,
): Promise<MailRunResult> {
  const now = clock.now();
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: letterMailOutbox.id })
      .from(letterMailOutbox)
      .where(
        and(
          isNull(letterMailOutbox.sentAt),
          isNull(letterMailOutbox.failedAt),
          lte(letterMailOutbox.nextAttemptAt, now),
        ),
      )
      .orderBy(asc(letterMailOutbox.nextAttemptAt))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(letterMailOutbox)
      .set({
        attempts: sql`${letterMailOutbox.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + MAIL_LEASE_MS),
      })
      .where(
        inArray(
          letterMailOutbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });

  const result: MailRunResult = { sent: 0, failed: 0 };
  for (const mail of claimed) {
    try {
      await mailer.send({
        to: mail.toEmail,
        subject: mail.subject,
        text: mail.text ?? '',
        link: mail.link ?? undefined,
      });
      // The text and link go once sent: a non-member's link is a bearer claim token.
      await db
        .update(letterMailOutbox)
        .set({ sentAt: clock.now(), text: null, link: null, lastError: null })
        .where(eq(letterMailOutbox.id, mail.id));
      result.sent += 1;
    } catch (error) {
      const giveUp = mail.attempts >= MAX_MAIL_ATTEMPTS;
      await db
        .update(letterMailOutbox)
        .set({
          lastError: (error as Error).message.slice(0, 500),
          nextAttemptAt: new Date(clock.now().getTime() + retryDelayMs(mail.attempts)),
          failedAt: giveUp ? clock.now() : null,
        })
        .where(eq(letterMailOutbox.id, mail.id));
      result.failed += 1;
    }
  }
  return result;
}
