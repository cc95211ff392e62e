import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { PRIVACY_SETTINGS, type Privacy } from '../../../contract/rules/memorial';
import { memorialPages, users } from './core';

export { PRIVACY_SETTINGS, type Privacy };

/**
 * The columns migrations/0020_memorial.sql adds to memorial_pages. The table itself belongs
 * to the foundation (core.ts); this second view of it keeps the memorial area's columns in
 * the memorial area's file. Join it on `id`.
 */
export const memorialPageProfiles = pgTable('memorial_pages', {
  id: uuid('id').primaryKey(),
  photoName: text('photo_name'),
  birthDate: date('birth_date', { mode: 'string' }),
  deathDate: date('death_date', { mode: 'string' }),
  animalKind: text('animal_kind'),
  privacy: text('privacy', { enum: PRIVACY_SETTINGS }).notNull().default('connections'),
  searchable: boolean('searchable').notNull().default(true),
  /** Bumped by triggers on every album or history change (migrations/0021). */
  listsVersion: bigint('lists_version', { mode: 'number' }).notNull().default(0),
});

export const albumPhotos = pgTable('album_photos', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  memorialPageId: uuid('memorial_page_id')
    .notNull()
    .references(() => memorialPages.id, { onDelete: 'cascade' }),
  imageName: text('image_name').notNull(),
  thumbnailName: text('thumbnail_name').notNull(),
  contentType: text('content_type').notNull(),
  byteSize: integer('byte_size').notNull(),
  thumbnailBytes: integer('thumbnail_bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  caption: text('caption').notNull().default(''),
  takenOn: date('taken_on', { mode: 'string' }),
  position: integer('position').notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const historyEntries = pgTable('history_entries', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  memorialPageId: uuid('memorial_page_id')
    .notNull()
    .references(() => memorialPages.id, { onDelete: 'cascade' }),
  occurredOn: date('occurred_on', { mode: 'string' }).notNull(),
  body: text('body').notNull(),
  imageName: text('image_name'),
  thumbnailName: text('thumbnail_name'),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const CONDOLENCE_STATUSES = ['pending', 'approved', 'hidden'] as const;

export const condolences = pgTable('condolences', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  memorialPageId: uuid('memorial_page_id')
    .notNull()
    .references(() => memorialPages.id, { onDelete: 'cascade' }),
  authorUserId: uuid('author_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  body: text('body').notNull(),
  status: text('status', { enum: CONDOLENCE_STATUSES }).notNull().default('pending'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
});

export const flowerOfferings = pgTable(
  'flower_offerings',
  {
    memorialPageId: uuid('memorial_page_id')
      .notNull()
      .references(() => memorialPages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    offeredOn: date('offered_on', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.memorialPageId, table.userId, table.offeredOn] })],
);

export const shareTokens = pgTable('share_tokens', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  tokenHash: text('token_hash').notNull().unique(),
  memorialPageId: uuid('memorial_page_id')
    .notNull()
    .references(() => memorialPages.id, { onDelete: 'cascade' }),
  invitingUserId: uuid('inviting_user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  setAdmin: boolean('set_admin').notNull().default(false),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  redeemedBy: uuid('redeemed_by').references(() => users.id, { onDelete: 'set null' }),
  expiredAt: timestamp('expired_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
