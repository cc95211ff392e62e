import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { albumPhotos, historyEntries, memorialPageProfiles } from '../../db/schema';
import { invalid } from '../../http/errors';

/**
 * One upload backs one thing only (an album photo, a history entry or a page photo), so that
 * deleting that thing may delete its files without breaking another.
 */
export async function assertImageUnused(db: Db, imageName: string, field: string): Promise<void> {
  const uses = await Promise.all([
    db
      .select({ id: albumPhotos.id })
      .from(albumPhotos)
      .where(eq(albumPhotos.imageName, imageName))
      .limit(1),
    db
      .select({ id: historyEntries.id })
      .from(historyEntries)
      .where(eq(historyEntries.imageName, imageName))
      .limit(1),
    db
      .select({ id: memorialPageProfiles.id })
      .from(memorialPageProfiles)
      .where(eq(memorialPageProfiles.photoName, imageName))
      .limit(1),
  ]);
  if (uses.some((rows) => rows.length > 0)) throw invalid([{ field, code: 'image_already_used' }]);
}
