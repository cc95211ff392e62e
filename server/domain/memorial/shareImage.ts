import sharp from 'sharp';
import { pageAccess } from './access';
import type { MemorialDeps } from './memorialDeps';
import { MAX_INPUT_PIXELS } from '../uploads/images';
import { shareImageNameFor } from '../uploads/uploads';

/** The size LINE and X show a large preview at (1.91:1). */
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;

/** A public page's share preview: named by its cover photo, read or made on demand. */
export interface ShareImage {
  /** The stored preview's name: the photo's object name changes whenever the photo does. */
  name: string;
  /** The preview's bytes, undefined when the photo is gone. */
  read(): Promise<Buffer | undefined>;
}

/**
 * The share preview of a public page, undefined for a page that is not public or has no
 * photo: a crawler sees nothing of any other page. The preview depends on the cover photo
 * alone, so it is made once per photo — a JPEG of SHARE_IMAGE_WIDTH × SHARE_IMAGE_HEIGHT
 * cropped from the centre — kept in the object store, and read from there afterwards.
 */
export async function publicShareImage(
  deps: MemorialDeps,
  pageId: string,
): Promise<ShareImage | undefined> {
  const access = await pageAccess(deps.db, pageId, undefined);
  const photoName = access?.page.privacy === 'public' ? access.page.photoName : null;
  if (!photoName) return undefined;
  const name = shareImageNameFor(photoName);
  return {
    name,
    read: async () => {
      const kept = await deps.store.get(name);
      if (kept) return kept.body;
      const photo = await deps.store.get(photoName);
      if (!photo) return undefined;
      const image = await sharp(photo.body, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize(SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT, { fit: 'cover' })
        .jpeg({ quality: 82, mozjpeg: true })
        .toBuffer();
      await deps.store.put(name, image, 'image/jpeg');
      return image;
    },
  };
}
