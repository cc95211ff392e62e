import sharp, { type Sharp } from 'sharp';
import {
  IMAGE_TYPE_OF_EXTENSION,
  imageTypeOfName,
  type StoredImageType,
} from '../../storage/objectStore';

/** Thumbnails fit in a 320 px square: two columns of a 360 px phone screen at 2x density. */
export const THUMBNAIL_SIZE = 320;
const THUMBNAIL_QUALITY = 70;
/** A 10 MB file can still decode to a huge bitmap; 40 Mpx covers every phone camera. */
export const MAX_INPUT_PIXELS = 40_000_000;

/** The types an upload may be: what the server stores, and nothing a browser would run. */
export const ACCEPTED_IMAGE_TYPES: readonly StoredImageType[] =
  Object.values(IMAGE_TYPE_OF_EXTENSION);
/** Older objects may also be GIFs (accepted before); they are still served as such. */
export type ServableImageType = StoredImageType | 'image/gif';

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  signature.every((byte, index) => bytes[offset + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image type the bytes say they are (magic numbers), whatever a name or header claims. */
export function sniffImageType(bytes: Buffer): ServableImageType | 'image/heic' | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('ftyp'), 4)) {
    const brand = bytes.subarray(8, 12).toString('latin1');
    if (['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
  }
  return undefined;
}

export interface CheckedImage {
  /** What is stored: the upload itself, or re-encoded (see checkImage). */
  body: Buffer;
  contentType: StoredImageType;
  width: number;
  height: number;
  thumbnail: Buffer;
}

/** Why an upload was refused: a code the client turns into its Japanese text. */
export class ImageRefused extends Error {
  constructor(
    readonly code: 'not_an_image' | 'image_heic_unsupported',
    detail: string,
  ) {
    super(detail);
  }
}

const ENCODE: Record<StoredImageType, (image: Sharp) => Sharp> = {
  'image/jpeg': (image) => image.jpeg({ quality: 92, mozjpeg: true }),
  'image/png': (image) => image.png(),
  'image/webp': (image) => image.webp({ quality: 92 }),
};

/**
 * Checks uploaded bytes for the object `objectName`: they must be a JPEG, PNG or WebP (by
 * their magic numbers) that decodes. They are stored as they came unless they carry
 * EXIF/XMP/IPTC (camera GPS: dropped) or are of another accepted type than the name's
 * extension (converted, so that an object's name always tells its type). HEIC cannot be
 * decoded by the image library as installed and is refused like anything else.
 */
export async function checkImage(objectName: string, bytes: Buffer): Promise<CheckedImage> {
  const sniffed = sniffImageType(bytes);
  if (sniffed === 'image/heic') {
    throw new ImageRefused('image_heic_unsupported', 'HEIC images are not accepted');
  }
  if (!sniffed || !ACCEPTED_IMAGE_TYPES.includes(sniffed as StoredImageType)) {
    throw new ImageRefused('not_an_image', 'only JPEG, PNG and WebP images are accepted');
  }
  const contentType = imageTypeOfName(objectName) ?? (sniffed as StoredImageType);
  const open = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS });
  try {
    const metadata = await open().metadata();
    // rotate() applies the EXIF orientation, so phone photos stay upright once it is dropped.
    const thumbnail = await open()
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: THUMBNAIL_QUALITY })
      .toBuffer();
    const carriesMetadata = Boolean(metadata.exif || metadata.xmp || metadata.iptc);
    const body =
      carriesMetadata || contentType !== sniffed
        ? await ENCODE[contentType](open().rotate().keepIccProfile()).toBuffer()
        : bytes;
    return {
      body,
      contentType,
      width: metadata.autoOrient.width,
      height: metadata.autoOrient.height,
      thumbnail,
    };
  } catch (error) {
    if (error instanceof ImageRefused) throw error;
    throw new ImageRefused('not_an_image', 'the image does not decode');
  }
}
