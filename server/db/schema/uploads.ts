import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './core';

export const UPLOAD_USES = [
  'album_photo',
  'history_photo',
  'page_photo',
  'letter_photo',
  'member_icon',
  'death_document',
] as const;
export type UploadUseKind = (typeof UPLOAD_USES)[number];

/** migrations/0003_uploads.sql: every uploaded object, its owner and what uses it. */
export const uploads = pgTable('uploads', {
  objectName: text('object_name').primaryKey(),
  ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
  maxBytes: integer('max_bytes').notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
  putAt: timestamp('put_at', { withTimezone: true }),
  contentType: text('content_type'),
  byteSize: integer('byte_size'),
  width: integer('width'),
  height: integer('height'),
  thumbnailName: text('thumbnail_name').unique(),
  thumbnailBytes: integer('thumbnail_bytes'),
  useKind: text('use_kind', { enum: UPLOAD_USES }),
  useId: uuid('use_id'),
});
