import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './core';

export const DELIVERY_RULES = ['date', 'death', 'death_anniversary', 'date_after_death'] as const;
export type DeliveryRule = (typeof DELIVERY_RULES)[number];

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** Mirrors migrations/0040_timecapsule.sql. */
export const timeCapsuleLetters = pgTable('time_capsule_letters', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  senderUserId: uuid('sender_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  body: text('body').notNull(),
  photoNames: text('photo_names')
    .array()
    .notNull()
    .default(sql`'{}'`),
  rule: text('rule', { enum: DELIVERY_RULES }).notNull(),
  sendAt: timestamptz('send_at'),
  delayDays: integer('delay_days'),
  anniversaryYears: integer('anniversary_years'),
  afterDeathDate: date('after_death_date', { mode: 'string' }),
  dueAt: timestamptz('due_at'),
  deliveredAt: timestamptz('delivered_at'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export const timeCapsuleLetterRecipients = pgTable(
  'time_capsule_letter_recipients',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    letterId: uuid('letter_id')
      .notNull()
      .references(() => timeCapsuleLetters.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    lastName: text('last_name'),
    firstName: text('first_name'),
    email: text('email'),
  },
  (table) => [unique().on(table.letterId, table.position)],
);

export const timeCapsuleLetterAdmins = pgTable(
  'time_capsule_letter_admins',
  {
    letterId: uuid('letter_id')
      .notNull()
      .references(() => timeCapsuleLetters.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.letterId, table.userId] })],
);

export const letterDeliveries = pgTable(
  'letter_deliveries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    letterId: uuid('letter_id')
      .notNull()
      .references(() => timeCapsuleLetters.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => timeCapsuleLetterRecipients.id, { onDelete: 'cascade' }),
    recipientUserId: uuid('recipient_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    claimTokenHash: text('claim_token_hash').unique(),
    deliveredAt: timestamptz('delivered_at').notNull(),
    late: boolean('late').notNull(),
    openedAt: timestamptz('opened_at'),
  },
  (table) => [unique().on(table.letterId, table.recipientId)],
);

/** Mirrors migrations/0088_letter_guest_addresses.sql. */
export const letterGuestAddresses = pgTable(
  'letter_guest_addresses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    firstUsedAt: timestamptz('first_used_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.email] })],
);
