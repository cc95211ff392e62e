import { and, eq } from 'drizzle-orm';
import type { albumPhotos, historyEntries } from '../../db/schema';
import { notFound } from '../../http/errors';
import { viewUrl } from '../../storage/viewUrls';
import { isUuid } from './access';
import type { MemorialDeps } from './deps';
import { deleteImage, registerUploadedImage, type VerifiedImage } from './images';
import { assertImageUnused } from './imageUse';

/*
 * What the album and the history do alike with their items: each item belongs to one page and
 * may carry one upload (image and thumbnail) that nothing else uses.
 */

type PageItemTable = typeof albumPhotos | typeof historyEntries;

/** A new upload for an item: unused elsewhere, then verified and thumbnailed. */
export async function verifiedImage(deps: MemorialDeps, imageName: string): Promise<VerifiedImage> {
  await assertImageUnused(deps.db, imageName, 'image_name');
  return registerUploadedImage(deps.store, imageName, 'image_name');
}

/** The signed view URLs of an item's image and thumbnail (null where it has none). */
export async function imageUrls(
  deps: MemorialDeps,
  row: { imageName: string | null; thumbnailName: string | null },
): Promise<{ url: string | null; thumbnailUrl: string | null }> {
  const [url, thumbnailUrl] = await Promise.all([
    viewUrl(deps, row.imageName),
    viewUrl(deps, row.thumbnailName),
  ]);
  return { url, thumbnailUrl };
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
  await deleteImage(deps.store, row);
}
