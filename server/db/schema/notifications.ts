import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './core';

/** Mirrors migrations/0050_social.sql: one notification (お知らせ) for one member. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (table) => [
    index('notifications_unread_idx')
      .on(table.userId)
      .where(sql`${table.readAt} IS NULL`),
    // Migration 0097: the notices about a member whose death case is cancelled.
    index('notifications_death_subject_idx')
      .on(sql`(${table.payload} ->> 'userId')`)
      .where(sql`${table.kind} = 'death_suspected'`),
  ],
);

/** Mirrors migrations/0050_social.sql and 0051: the 1- and 2-character grams search looks up. */
export const userSearchGrams = pgTable(
  'user_search_grams',
  {
    gram: text('gram').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The member's name_reading (0051), so that a gram's rows read in reading order. */
    reading: text('reading').notNull().default(''),
  },
  (table) => [primaryKey({ columns: [table.gram, table.userId] })],
);
