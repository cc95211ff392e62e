import { sql } from 'drizzle-orm';
import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './core';

export const RELATIONSHIPS = ['family', 'relative', 'friend', 'acquaintance', 'other'] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

/** Mirrors migrations/0002_connections.sql. */
export const connections = pgTable(
  'connections',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    otherUserId: uuid('other_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    relationship: text('relationship', { enum: RELATIONSHIPS }).notNull().default('other'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.otherUserId] })],
);

export const connectionRequests = pgTable('connection_requests', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  fromUserId: uuid('from_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  toUserId: uuid('to_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  relationship: text('relationship', { enum: RELATIONSHIPS }).notNull().default('other'),
  status: text('status', { enum: ['pending', 'accepted', 'declined', 'cancelled'] })
    .notNull()
    .default('pending'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  respondedAt: timestamp('responded_at', { withTimezone: true }),
});
