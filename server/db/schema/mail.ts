import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './core';
import { letterDeliveries } from './timecapsule';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** Every mail the service sends, written with the change that causes it (mail/outbox.ts). */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  kind: text('kind').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  deliveryId: uuid('delivery_id')
    .unique()
    .references(() => letterDeliveries.id, { onDelete: 'cascade' }),
  toEmail: text('to_email').notNull(),
  subject: text('subject').notNull(),
  text: text('text'),
  link: text('link'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamptz('created_at').notNull(),
  nextAttemptAt: timestamptz('next_attempt_at').notNull(),
  lastError: text('last_error'),
  sentAt: timestamptz('sent_at'),
  failedAt: timestamptz('failed_at'),
  // 0089_mail_reports.sql
  reportTokenHash: text('report_token_hash').unique(),
  // 0099_mail_withdrawal.sql: the member whose death the mail is about; withdrawn unsent.
  aboutUserId: uuid('about_user_id').references(() => users.id, { onDelete: 'cascade' }),
  withdrawnAt: timestamptz('withdrawn_at'),
});

/** Mirrors migrations/0089_mail_reports.sql: "report this mail", once per mail. */
export const mailReports = pgTable('mail_reports', {
  mailId: uuid('mail_id').primaryKey(),
  kind: text('kind').notNull(),
  senderUserId: uuid('sender_user_id').references(() => users.id, { onDelete: 'set null' }),
  letterId: uuid('letter_id'),
  toEmail: text('to_email').notNull(),
  reportedAt: timestamptz('reported_at').notNull(),
});
