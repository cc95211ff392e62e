import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { uploads, type UploadUseKind } from '../../db/schema';
import { DomainError, invalid } from '../errors';
import type { IMAGE_TYPE_OF_EXTENSION } from '../../storage/objectStore';
import {
  MAX_ANONYMOUS_UPLOAD_BYTES,
  MAX_UPLOAD_BYTES,
  OBJECT_NAME_PATTERN,
  type ObjectStore,
} from '../../storage/objectStore';
import type { Clock } from '../../lib/clock';
import { checkImage, ImageRefused } from './images';

/** Where uploads and their thumbnails live; the server picks every name. */
export const UPLOAD_FOLDER = 'uploads';
const THUMBNAIL_FOLDER = 'thumbs';
const SHARE_IMAGE_FOLDER = 'shares';
/** An upload that nothing claimed within a day is deleted with its files. */
export const UNCLAIMED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

export interface UploadDeps {
  db: Db;
  store: ObjectStore;
  clock: Clock;
}

/** What uses an upload: the album photo, history entry, page, letter or member by id. */
export interface UploadUse {
  kind: UploadUseKind;
  id: string;
}

/** A stored upload as its use records it. */
export interface ClaimedImage {
  imageName: string;
  thumbnailName: string;
  contentType: string;
  byteSize: number;
  width: number;
  height: number;
  thumbnailBytes: number;
}

const EXTENSION_OF_HINT: Record<string, keyof typeof IMAGE_TYPE_OF_EXTENSION> = {
  jpg: 'jpg',
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
};

/**
 * A fresh object name. Its extension is the hinted file name's when that is an accepted
 * image type and `.jpg` otherwise: the bytes stored under it are always of that type.
 */
export function newUploadName(hint: string | undefined): string {
  const extension = hint?.match(/\.([A-Za-z0-9]{2,5})$/)?.[1]?.toLowerCase() ?? '';
  return `${UPLOAD_FOLDER}/${randomBytes(16).toString('base64url')}.${EXTENSION_OF_HINT[extension] ?? 'jpg'}`;
}

/** The random id of an upload's object name (uploads/<id>.<ext>). */
const uploadIdOf = (imageName: string) =>
  imageName.slice(UPLOAD_FOLDER.length + 1).replace(/\.[a-z0-9]+$/, '');

/** Where the thumbnail of an upload lives (thumbs/<the upload's id>.webp). */
export function thumbnailNameFor(imageName: string): string {
  return `${THUMBNAIL_FOLDER}/${uploadIdOf(imageName)}.webp`;
}

/**
 * Where the share preview made from a page photo is kept (shares/<the upload's id>.jpg), made
 * the first time it is asked for and deleted with the photo's other files.
 */
export function shareImageNameFor(imageName: string): string {
  return `${SHARE_IMAGE_FOLDER}/${uploadIdOf(imageName)}.jpg`;
}

/** Every file an upload may have: itself, its thumbnail and, for a page photo, its preview. */
const filesOf = (row: {
  objectName: string;
  thumbnailName: string | null;
  useKind: UploadUseKind | null;
}) => [
  row.objectName,
  row.thumbnailName,
  row.useKind === 'page_photo' ? shareImageNameFor(row.objectName) : null,
];

const releasedFiles = {
  objectName: uploads.objectName,
  thumbnailName: uploads.thumbnailName,
  useKind: uploads.useKind,
};

/**
 * Records an upload about to be sent and answers its name: owned by the signed-in caller,
 * or by nobody (and smaller) when there is none, until registration claims it.
 */
export async function startUpload(
  deps: UploadDeps,
  ownerUserId: string | undefined,
  hint: string | undefined,
): Promise<string> {
  const objectName = newUploadName(hint);
  await deps.db.insert(uploads).values({
    objectName,
    ownerUserId: ownerUserId ?? null,
    maxBytes: ownerUserId ? MAX_UPLOAD_BYTES : MAX_ANONYMOUS_UPLOAD_BYTES,
    signedAt: deps.clock.now(),
  });
  return objectName;
}

/** The largest body the upload of `objectName` may still send; undefined once it was sent. */
export async function pendingUploadLimit(db: Db, objectName: string): Promise<number | undefined> {
  const [row] = await db
    .select({ maxBytes: uploads.maxBytes })
    .from(uploads)
    .where(and(eq(uploads.objectName, objectName), isNull(uploads.putAt)));
  return row?.maxBytes;
}

const usedUrl = () =>
  new DomainError('forbidden', 'signed_url_used', 'this upload URL has already been used');

/**
 * The one PUT an upload URL allows. The URL is spent before the bytes are looked at; bytes
 * that are no accepted image (415) or too large (413) are not kept, and neither is the
 * upload's record. What passes is stored under the type the server detected, with a
 * thumbnail.
 */
export async function receiveUpload(
  deps: UploadDeps,
  objectName: string,
  bytes: Buffer,
): Promise<void> {
  const [row] = await deps.db
    .update(uploads)
    .set({ putAt: deps.clock.now() })
    .where(and(eq(uploads.objectName, objectName), isNull(uploads.putAt)))
    .returning({ maxBytes: uploads.maxBytes });
  if (!row) throw usedUrl();
  const forget = () => deps.db.delete(uploads).where(eq(uploads.objectName, objectName));
  if (bytes.length > row.maxBytes) {
    await forget();
    throw new DomainError(
      'too_large',
      'image_too_large',
      `uploads are limited to ${row.maxBytes} bytes`,
    );
  }
  let image;
  try {
    image = await checkImage(objectName, bytes);
  } catch (error) {
    await forget();
    if (error instanceof ImageRefused)
      throw new DomainError('unsupported_type', error.code, error.message);
    throw error;
  }
  const thumbnailName = thumbnailNameFor(objectName);
  try {
    await deps.store.put(objectName, image.body, image.contentType);
    await deps.store.put(thumbnailName, image.thumbnail, 'image/webp');
  } catch (error) {
    await forget();
    await deleteFiles(deps.store, [objectName, thumbnailName]);
    throw error;
  }
  await deps.db
    .update(uploads)
    .set({
      contentType: image.contentType,
      byteSize: image.body.length,
      width: image.width,
      height: image.height,
      thumbnailName,
      thumbnailBytes: image.thumbnail.length,
    })
    .where(eq(uploads.objectName, objectName));
}

/**
 * Gives a stored, unclaimed upload of `ownerUserId` its use (422 on `field` otherwise).
 * `ownerUserId` null claims an upload sent without an account, which then becomes
 * `newOwnerUserId`'s: the registration icon.
 */
export async function claimUpload(
  db: Db,
  claim: {
    objectName: string;
    ownerUserId: string | null;
    newOwnerUserId?: string;
    use: UploadUse;
    field: string;
  },
): Promise<ClaimedImage> {
  const { objectName, ownerUserId, use, field } = claim;
  if (!objectName.startsWith(`${UPLOAD_FOLDER}/`) || !OBJECT_NAME_PATTERN.test(objectName)) {
    throw invalid([{ field, code: 'image_name_invalid' }]);
  }
  const owned = ownerUserId ? eq(uploads.ownerUserId, ownerUserId) : isNull(uploads.ownerUserId);
  const [row] = await db
    .update(uploads)
    .set({
      useKind: use.kind,
      useId: use.id,
      ...(claim.newOwnerUserId ? { ownerUserId: claim.newOwnerUserId } : {}),
    })
    .where(
      and(
        eq(uploads.objectName, objectName),
        owned,
        isNull(uploads.useKind),
        isNotNull(uploads.contentType),
      ),
    )
    .returning();
  if (!row) {
    const [mine] = await db
      .select({ useKind: uploads.useKind })
      .from(uploads)
      .where(and(eq(uploads.objectName, objectName), owned));
    // Another member's upload reads as missing: its name tells the caller nothing.
    throw invalid([{ field, code: mine?.useKind ? 'image_already_used' : 'upload_missing' }]);
  }
  return {
    imageName: row.objectName,
    thumbnailName: row.thumbnailName!,
    contentType: row.contentType!,
    byteSize: row.byteSize!,
    width: row.width!,
    height: row.height!,
    thumbnailBytes: row.thumbnailBytes!,
  };
}

async function deleteFiles(store: ObjectStore, names: (string | null)[]): Promise<void> {
  await Promise.all(
    names.filter((name): name is string => Boolean(name)).map((name) => store.delete(name)),
  );
}

/**
 * Ends `use` of the named uploads (all of the use's uploads when `objectNames` is omitted)
 * and deletes their files. An object is deleted only when `use` is the one it records, so
 * naming another member's object in one's own album and removing it deletes nothing.
 */
export async function releaseUploads(
  deps: { db: Db; store: ObjectStore },
  use: UploadUse,
  objectNames?: (string | null)[],
): Promise<void> {
  const names = objectNames?.filter((name): name is string => Boolean(name));
  if (names && names.length === 0) return;
  const ofUse = and(eq(uploads.useKind, use.kind), eq(uploads.useId, use.id));
  const released = await deps.db
    .delete(uploads)
    .where(names ? and(ofUse, or(...names.map((name) => eq(uploads.objectName, name)))) : ofUse)
    .returning(releasedFiles);
  await deleteFiles(deps.store, released.flatMap(filesOf));
}

/** The upload an object name belongs to (itself or its thumbnail), with its owner and use. */
export async function uploadOfObject(db: Db, objectName: string) {
  const [row] = await db
    .select({
      ownerUserId: uploads.ownerUserId,
      useKind: uploads.useKind,
      useId: uploads.useId,
    })
    .from(uploads)
    .where(or(eq(uploads.objectName, objectName), eq(uploads.thumbnailName, objectName)))
    .limit(1);
  return row;
}

/**
 * Deletes, with their files, the uploads nothing claimed within a day and those whose use is
 * gone (an album photo, history entry, page or letter deleted with what held it, such as the
 * pages of a deleted account); answers how many.
 */
export async function sweepUnusedUploads(deps: UploadDeps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - UNCLAIMED_UPLOAD_TTL_MS);
  const whoseUseIsGone = (kind: UploadUseKind, table: SQL) =>
    sql`(${uploads.useKind} = ${kind} and not exists (select 1 from ${table} where id = ${uploads.useId}))`;
  const swept = await deps.db
    .delete(uploads)
    .where(
      or(
        and(isNull(uploads.useKind), lt(uploads.signedAt, before)),
        whoseUseIsGone('album_photo', sql`album_photos`),
        whoseUseIsGone('history_photo', sql`history_entries`),
        whoseUseIsGone('page_photo', sql`memorial_pages`),
        whoseUseIsGone('letter_photo', sql`time_capsule_letters`),
      ),
    )
    .returning(releasedFiles);
  await deleteFiles(deps.store, swept.flatMap(filesOf));
  return swept.length;
}
