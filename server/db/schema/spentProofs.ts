import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Mirrors migrations/0084_spent_proofs.sql. */
export const spentProofs = pgTable(
  'spent_proofs',
  {
    proofKey: text('proof_key').primaryKey(),
    spentAt: timestamp('spent_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('spent_proofs_expires_idx').on(table.expiresAt)],
);
