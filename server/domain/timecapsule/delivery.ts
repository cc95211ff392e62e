import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  letterDeliveries,
  timeCapsuleLetterRecipients,
  timeCapsuleLetters,
  users,
} from '../../db/schema';
import { hashSecretToken, newSecretToken } from '../accounts/secretTokens';
import { notifyAll, type Notice } from '../social/notifications';
import { enqueueMails, type OutboxMail } from '../../mail/outbox';
import { letterMail } from './mail';
import { isLate } from './rules';
import type { TimecapsuleDeps } from './timecapsuleDeps';

/** Letters claimed per delivery transaction. */
export const DELIVERY_BATCH_SIZE = 200;

/** What delivering needs: no file store, so a bench can deliver from a bare database. */
export type DeliveryDeps = Pick<TimecapsuleDeps, 'db' | 'clock' | 'publicUrl' | 'texts'>;

export interface DeliveryOptions {
  /** Letters claimed per transaction (DELIVERY_BATCH_SIZE). */
  batchSize?: number;
}

const sender = alias(users, 'sender');
const recipientUser = alias(users, 'recipient_user');

/**
 * Delivers one batch of due letters and answers how many letters it delivered (0: none due).
 *
 * One transaction claims the oldest due letters with FOR UPDATE SKIP LOCKED (other instances
 * skip them), writes one letter_deliveries row per recipient (UNIQUE (letter_id, recipient_id)
 * makes a second delivery impossible whatever happens elsewhere), records the mail each
 * recipient is to get in the mail outbox and each member recipient's notification, and
 * marks the letters delivered. A crash before
 * COMMIT leaves nothing behind, so the next run delivers the letter; after COMMIT the letter
 * is no longer due.
 */
export async function deliverDueLetters(
  { db, clock, publicUrl, texts }: DeliveryDeps,
  options: DeliveryOptions = {},
): Promise<number> {
  const now = clock.now();
  const t = await texts();
  return db.transaction(async (tx) => {
    const letters = await tx
      .select({
        id: timeCapsuleLetters.id,
        title: timeCapsuleLetters.title,
        dueAt: timeCapsuleLetters.dueAt,
        rule: timeCapsuleLetters.rule,
        senderUserId: timeCapsuleLetters.senderUserId,
        senderFirstName: sender.firstName,
        senderLastName: sender.lastName,
      })
      .from(timeCapsuleLetters)
      .innerJoin(sender, eq(sender.id, timeCapsuleLetters.senderUserId))
      .where(and(isNull(timeCapsuleLetters.deliveredAt), lte(timeCapsuleLetters.dueAt, now)))
      .orderBy(asc(timeCapsuleLetters.dueAt))
      .limit(options.batchSize ?? DELIVERY_BATCH_SIZE)
      .for('update', { of: timeCapsuleLetters, skipLocked: true });
    if (letters.length === 0) return 0;
    const letterIds = letters.map((letter) => letter.id);
    const byId = new Map(letters.map((letter) => [letter.id, letter]));

    const recipients = await tx
      .select({
        id: timeCapsuleLetterRecipients.id,
        letterId: timeCapsuleLetterRecipients.letterId,
        userId: timeCapsuleLetterRecipients.userId,
        guestEmail: timeCapsuleLetterRecipients.email,
        guestFirstName: timeCapsuleLetterRecipients.firstName,
        guestLastName: timeCapsuleLetterRecipients.lastName,
        memberEmail: recipientUser.email,
        memberFirstName: recipientUser.firstName,
        memberLastName: recipientUser.lastName,
        memberStatus: recipientUser.status,
      })
      .from(timeCapsuleLetterRecipients)
      .leftJoin(recipientUser, eq(recipientUser.id, timeCapsuleLetterRecipients.userId))
      .where(inArray(timeCapsuleLetterRecipients.letterId, letterIds));

    const deliveries = recipients.map((recipient) => {
      const letter = byId.get(recipient.letterId)!;
      const claimToken = recipient.userId ? undefined : newSecretToken();
      return {
        row: {
          id: randomUUID(),
          letterId: letter.id,
          recipientId: recipient.id,
          recipientUserId: recipient.userId,
          claimTokenHash: claimToken ? hashSecretToken(claimToken, 'hex') : null,
          deliveredAt: now,
          late: isLate(letter.dueAt!, now),
        },
        letter,
        recipient,
        claimToken,
      };
    });
    const written = deliveries.length
      ? await tx
          .insert(letterDeliveries)
          .values(deliveries.map((delivery) => delivery.row))
          .onConflictDoNothing({
            target: [letterDeliveries.letterId, letterDeliveries.recipientId],
          })
          .returning({ id: letterDeliveries.id })
      : [];
    const writtenIds = new Set(written.map((row) => row.id));

    const mails = deliveries.flatMap(({ row, letter, recipient, claimToken }) => {
      const email = recipient.userId
        ? recipient.memberStatus === 'deleted'
          ? null
          : recipient.memberEmail
        : recipient.guestEmail;
      if (!writtenIds.has(row.id) || !email) return [];
      const reportToken = newSecretToken();
      const mail = letterMail(t, {
        publicUrl,
        letterId: letter.id,
        title: letter.title,
        sender: { firstName: letter.senderFirstName, lastName: letter.senderLastName },
        recipient: {
          firstName: recipient.memberFirstName ?? recipient.guestFirstName ?? '',
          lastName: recipient.memberLastName ?? recipient.guestLastName ?? '',
        },
        claimToken,
        reportToken,
        dueAt: letter.dueAt!,
        late: row.late,
      });
      const outboxMail: OutboxMail = {
        kind: 'letter',
        userId: row.recipientUserId ?? undefined,
        // A letter sent because of the writer's death is withdrawn if that death is undone.
        aboutUserId: letter.rule === 'date' ? undefined : letter.senderUserId,
        deliveryId: row.id,
        to: email,
        reportTokenHash: hashSecretToken(reportToken),
        ...mail,
      };
      return [outboxMail];
    });
    await enqueueMails(tx, mails, clock);

    // One insert for the batch, in the same transaction.
    const notices = deliveries.flatMap(({ row, letter }): Notice[] => {
      if (!writtenIds.has(row.id) || !row.recipientUserId) return [];
      const payload = {
        letterId: letter.id,
        senderName: `${letter.senderLastName} ${letter.senderFirstName}`.trim(),
        title: letter.title,
      };
      return [{ userId: row.recipientUserId, kind: 'letter_delivered', payload }];
    });
    await notifyAll(tx, notices, now);

    await tx
      .update(timeCapsuleLetters)
      .set({ deliveredAt: now })
      .where(inArray(timeCapsuleLetters.id, letterIds));
    return letters.length;
  });
}

/** Delivers batches until no letter is due; answers the number of letters delivered. */
export async function deliverAllDueLetters(
  deps: DeliveryDeps,
  options: DeliveryOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? DELIVERY_BATCH_SIZE;
  let total = 0;
  for (;;) {
    const delivered = await deliverDueLetters(deps, { batchSize });
    total += delivered;
    if (delivered < batchSize) return total;
    // Let waiting requests in between batches: PGlite has one connection, and a backlog of
    // thousands of letters must not hold the API up until it is cleared.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
