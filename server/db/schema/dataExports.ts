import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { DATA_EXPORT_STATUSES } from '../../../contract/rules/dataExport';
import { memorialPages, users } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Mirrors migrations/0100_data_exports.sql, 0110_keepsakes.sql and 0120_after_death_choices.sql:
 * a member's archive of all their data, (with `memorialPageId`) a keepsake of a memorial page an
 * admin asked for, or (with `subjectUserId`) a released member's archive for an administrator.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: DATA_EXPORT_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    objectName: text('object_name'),
    byteSize: bigint('byte_size', { mode: 'number' }),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    readyAt: ts('ready_at'),
    expiresAt: ts('expires_at'),
    linkHash: text('link_hash').unique(),
    linkExpiresAt: ts('link_expires_at'),
    linkUsedAt: ts('link_used_at'),
    memorialPageId: uuid('memorial_page_id').references(() => memorialPages.id, {
      onDelete: 'cascade',
    }),
    /** 0120: the member whose data an administrator's archive holds (docs/after-death.md). */
    subjectUserId: uuid('subject_user_id').references(() => users.id, { onDelete: 'cascade' }),
    downloadedAt: ts('downloaded_at'),
  },
  (table) => [index('data_exports_user_idx').on(table.userId, table.createdAt)],
);
