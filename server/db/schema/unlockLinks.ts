import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './core';

/** Mirrors migrations/0012_unlock_links.sql (and `used_at` of 0080_mailed_links_once.sql). */
export const unlockLinks = pgTable(
  'unlock_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('unlock_links_user_idx').on(table.userId)],
);
