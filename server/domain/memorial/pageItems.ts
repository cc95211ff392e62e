import { and, eq } from 'drizzle-orm';
import { albumPhotos, type historyEntries } from '../../db/schema';
import { notFound } from '../errors';
import { isUuid } from './access';
import type { MemorialDeps } from './memorialDeps';
import type { Db } from '../../db/database';
import { claimUpload, releaseUploads, type ClaimedImage } from '../uploads/uploads';

/*
 * What the album and the history do alike with their items: each item belongs to one page and
 * may carry one upload (image and thumbnail), which records the item as its one use.
 */

type PageItemTable = typeof albumPhotos | typeof historyEntries;

const uploadUseOf = (table: PageItemTable, itemId: string) =>
  ({ kind: table === albumPhotos ? 'album_photo' : 'history_photo', id: itemId }) as const;

/** The member's own stored, unused upload, claimed for the item (422 on `image_name`). */
export function claimItemImage(
  db: Db,
  table: PageItemTable,
  itemId: string,
  userId: string,
  imageName: string,
): Promise<ClaimedImage> {
  return claimUpload(db, {
    objectName: imageName,
    ownerUserId: userId,
    use: uploadUseOf(table, itemId),
    field: 'image_name',
  });
}

/** Ends the item's use of its upload and deletes the files it recorded as the item's. */
export function releaseItemImage(
  deps: MemorialDeps,
  table: PageItemTable,
  itemId: string,
  imageName: string | null,
): Promise<void> {
  return releaseUploads(deps, uploadUseOf(table, itemId), [imageName]);
}

/**
 * The signed view URLs of items' images and thumbnails (null where an item has none), in the
 * items' order: one await for a whole list, not a chain of promises per item.
 */
export async function imageUrlsOf(
  deps: MemorialDeps,
  rows: { imageName: string | null; thumbnailName: string | null }[],
): Promise<{ url: string | null; thumbnailUrl: string | null }[]> {
  const names = rows.flatMap((row) => [row.imageName, row.thumbnailName]);
  const signed = await Promise.all(
    names.filter((name) => name !== null).map((name) => deps.store.signedUrl(name, 'GET')),
  );
  // The signed URLs come in the order of the names that are there.
  let next = 0;
  const urlOf = (name: string | null) => (name === null ? null : signed[next++]!);
  return rows.map((row) => ({ url: urlOf(row.imageName), thumbnailUrl: urlOf(row.thumbnailName) }));
}

/** The page's item by id; 404 (`what`) for a malformed id or another page's item. */
export async function itemOfPage<T extends PageItemTable>(
  deps: MemorialDeps,
  table: T,
  pageId: string,
  itemId: string,
  what: string,
): Promise<T['$inferSelect']> {
  if (!isUuid(itemId)) throw notFound(what);
  const items: PageItemTable = table;
  const [row] = await deps.db
    .select()
    .from(items)
    .where(and(eq(items.id, itemId), eq(items.memorialPageId, pageId)));
  if (!row) throw notFound(what);
  return row as T['$inferSelect'];
}

/** Deletes the page's item and then its files. */
export async function deleteItemOfPage(
  deps: MemorialDeps,
  table: PageItemTable,
  pageId: string,
  itemId: string,
  what: string,
): Promise<void> {
  const row = await itemOfPage(deps, table, pageId, itemId, what);
  await deps.db.delete(table).where(eq(table.id, itemId));
  await releaseItemImage(deps, table, itemId, row.imageName);
}
