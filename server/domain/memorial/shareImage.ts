import sharp from 'sharp';
import { pageAccess } from './access';
import type { MemorialDeps } from './memorialDeps';
import { MAX_INPUT_PIXELS } from '../uploads/images';

/** The size LINE and X show a large preview at (1.91:1). */
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;

/**
 * The cover photo of a public page as a share preview: a JPEG of SHARE_IMAGE_WIDTH ×
 * SHARE_IMAGE_HEIGHT, cropped from the centre. Undefined for a page that is not public, that
 * has no photo, or whose photo is gone: a crawler sees nothing of any other page.
 */
export async function publicShareImage(
  deps: MemorialDeps,
  pageId: string,
): Promise<Buffer | undefined> {
  const access = await pageAccess(deps.db, pageId, undefined);
  if (!access || access.page.privacy !== 'public' || !access.page.photoName) return undefined;
  const photo = await deps.store.get(access.page.photoName);
  if (!photo) return undefined;
  return sharp(photo.body, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT, { fit: 'cover' })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}
