import { integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { SECTION_VISIBILITIES } from '../../../contract/rules/endingnote';
import { users } from './core';

/** Mirrors migrations/0030_ending_note.sql. */
export const endingNoteSections = pgTable(
  'ending_note_sections',
  {
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    section: text('section').notNull(),
    content: jsonb('content').$type<Record<string, unknown>>().notNull().default({}),
    sealed: jsonb('sealed').$type<Record<string, string>>().notNull().default({}),
    visibility: text('visibility', { enum: SECTION_VISIBILITIES }).notNull().default('private'),
    version: integer('version').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.ownerUserId, table.section] })],
);

export const endingNoteReaders = pgTable(
  'ending_note_readers',
  {
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readerUserId: uuid('reader_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.ownerUserId, table.readerUserId] })],
);
