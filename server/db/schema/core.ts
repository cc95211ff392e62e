import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SexCode } from '../../../contract/rules/account';

/** Mirrors migrations/0001_foundation.sql (and the columns later migrations add). */
export const users = pgTable('users', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  email: text('email').notNull(),
  username: text('username').notNull(),
  passwordHash: text('password_hash'),
  lastName: text('last_name').notNull().default(''),
  firstName: text('first_name').notNull().default(''),
  lastNameKana: text('last_name_kana').notNull().default(''),
  firstNameKana: text('first_name_kana').notNull().default(''),
  nameReading: text('name_reading').notNull().default(''),
  address: text('address'),
  birthdate: date('birthdate', { mode: 'string' }),
  sexCode: smallint('sex_code').$type<SexCode>(),
  iconName: text('icon_name'),
  status: text('status', { enum: ['inactive', 'active', 'deleted'] })
    .notNull()
    .default('inactive'),
  searchable: boolean('searchable').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  activatedAt: timestamp('activated_at', { withTimezone: true }),
  lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
  // 0010_accounts.sql
  registrationAdminPetId: text('registration_admin_pet_id'),
  inflowId: text('inflow_id'),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  // 0077_letter_lists_version.sql
  lettersVersion: bigint('letters_version', { mode: 'number' }).notNull().default(0),
  // 0087_session_epoch.sql
  sessionEpoch: integer('session_epoch').notNull().default(0),
});

export const memorialPages = pgTable('memorial_pages', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
  type: text('type', { enum: ['self', 'other', 'pet'] }).notNull(),
  lastName: text('last_name').notNull().default(''),
  firstName: text('first_name').notNull().default(''),
  lastNameKana: text('last_name_kana').notNull().default(''),
  firstNameKana: text('first_name_kana').notNull().default(''),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const memorialPageMembers = pgTable(
  'memorial_page_members',
  {
    memorialPageId: uuid('memorial_page_id')
      .notNull()
      .references(() => memorialPages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'viewer'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.memorialPageId, table.userId] })],
);
