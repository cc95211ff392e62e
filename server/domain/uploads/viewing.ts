import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { albumPhotos, historyEntries } from '../../db/schema';
import { isAdministratorOf } from '../deathDetection/settings';
import { pageAccess } from '../memorial/access';
import { mayReadLetterPhotos } from '../timecapsule/reading';
import { uploadOfObject } from './uploads';

/** The page an album photo or history entry belongs to. */
async function pageOfItem(
  db: Db,
  table: typeof albumPhotos | typeof historyEntries,
  itemId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ pageId: table.memorialPageId })
    .from(table)
    .where(eq(table.id, itemId));
  return row?.pageId;
}

/**
 * Who may see a member's icon: any signed-in member, never a signed-out visitor — not even
 * of an admin named on a public page, whose avatar then shows the name's first letter.
 */
export const mayViewMemberIcons = (userId: string | undefined): boolean => userId !== undefined;

/**
 * Whether `userId` (undefined: signed out) may see the object: only who may see what uses
 * it — a page's photos whoever may read the page, a letter's photos its readers, a member's
 * icon any signed-in member — and an upload nothing uses yet only its owner.
 */
export async function mayViewObject(
  db: Db,
  objectName: string,
  userId: string | undefined,
): Promise<boolean> {
  const upload = await uploadOfObject(db, objectName);
  if (!upload) return false;
  const mayReadPage = async (pageId: string | undefined) =>
    pageId !== undefined && (await pageAccess(db, pageId, userId)) !== undefined;
  switch (upload.useKind) {
    case null:
      return userId !== undefined && upload.ownerUserId === userId;
    case 'member_icon':
      return mayViewMemberIcons(userId);
    case 'page_photo':
      return mayReadPage(upload.useId!);
    case 'album_photo':
      return mayReadPage(await pageOfItem(db, albumPhotos, upload.useId!));
    case 'history_photo':
      return mayReadPage(await pageOfItem(db, historyEntries, upload.useId!));
    case 'letter_photo':
      return userId !== undefined && mayReadLetterPhotos({ db }, upload.useId!, userId);
    case 'death_document':
      // A report's document: the member it concerns and that member's administrators.
      return (
        userId !== undefined &&
        (userId === upload.useId || (await isAdministratorOf(db, userId, upload.useId!)))
      );
  }
}
