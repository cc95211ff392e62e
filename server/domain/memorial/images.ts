import { randomBytes } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { invalid } from '../../http/errors';
import { MAX_UPLOAD_BYTES, OBJECT_NAME_PATTERN, type ObjectStore } from '../../storage/objectStore';

/** Where signed PUT URLs point: the server picks the name, the client only hints the extension. */
export const UPLOAD_FOLDER = 'uploads';
const THUMBNAIL_FOLDER = 'thumbs';
/** Thumbnails fit in a 320 px square: two columns of a 360 px phone screen at 2x density. */
export const THUMBNAIL_SIZE = 320;
const THUMBNAIL_QUALITY = 70;
/** A 10 MB file can still decode to a huge bitmap; 40 Mpx covers every phone camera. */
export const MAX_INPUT_PIXELS = 40_000_000;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
const EXTENSIONS: Record<string, ImageType> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** A fresh upload object name; keeps the hinted extension only when it is an image one. */
export function newUploadName(hint: string | undefined): string {
  const extension = hint?.match(/\.([A-Za-z0-9]{2,5})$/)?.[1]?.toLowerCase();
  const safe = extension && extension in EXTENSIONS ? `.${extension}` : '';
  return `${UPLOAD_FOLDER}/${randomBytes(16).toString('base64url')}${safe}`;
}

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  signature.every((byte, index) => bytes[offset + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image type the bytes say they are (magic numbers), whatever the name claims. */
export function sniffImageType(bytes: Buffer): ImageType | 'image/heic' | undefined {
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

export interface VerifiedImage {
  imageName: string;
  contentType: ImageType;
  byteSize: number;
  width: number;
  height: number;
  thumbnailName: string;
  thumbnailBytes: number;
}

interface DecodedImage {
  width: number;
  height: number;
  thumbnail: Buffer;
  /** The image again without EXIF/XMP/IPTC (camera GPS), when it carried any. */
  withoutMetadata: Buffer | undefined;
}

const REENCODE: Partial<Record<ImageType, (image: Sharp) => Sharp>> = {
  'image/jpeg': (image) => image.jpeg({ quality: 92, mozjpeg: true }),
  'image/png': (image) => image.png(),
  'image/webp': (image) => image.webp({ quality: 92 }),
};

async function decode(body: Buffer, contentType: ImageType): Promise<DecodedImage> {
  const open = () => sharp(body, { limitInputPixels: MAX_INPUT_PIXELS });
  const metadata = await open().metadata();
  // rotate() applies the EXIF orientation, so phone photos stay upright once it is dropped.
  const thumbnail = await open()
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: THUMBNAIL_QUALITY })
    .toBuffer();
  const reencode = REENCODE[contentType];
  const carriesMetadata = Boolean(metadata.exif || metadata.xmp || metadata.iptc);
  return {
    width: metadata.autoOrient.width,
    height: metadata.autoOrient.height,
    thumbnail,
    withoutMetadata:
      carriesMetadata && reencode
        ? await reencode(open().rotate().keepIccProfile()).toBuffer()
        : undefined,
  };
}

/**
 * Registers an upload: reads the object back, accepts it only when its bytes are a JPEG, PNG,
 * WebP or GIF that decodes and is within MAX_UPLOAD_BYTES, stores it again under its real
 * content type — re-encoded without EXIF/XMP/IPTC when it carried any, since phone photos
 * carry the place they were taken — and writes a WebP thumbnail beside it. A presigned PUT cannot cap size or
 * type, so this is where both are enforced (422 on `field`).
 */
export async function registerUploadedImage(
  store: ObjectStore,
  imageName: string,
  field: string,
): Promise<VerifiedImage> {
  const refuse = (code: string) => invalid([{ field, code }]);
  if (!imageName.startsWith(`${UPLOAD_FOLDER}/`) || !OBJECT_NAME_PATTERN.test(imageName)) {
    throw refuse('image_name_invalid');
  }
  const object = await store.get(imageName);
  if (!object) throw refuse('upload_missing');
  if (object.body.length > MAX_UPLOAD_BYTES) throw refuse('image_too_large');
  const contentType = sniffImageType(object.body);
  if (contentType === 'image/heic') throw refuse('image_heic_unsupported');
  if (!contentType) throw refuse('not_an_image');

  let decoded: DecodedImage;
  try {
    decoded = await decode(object.body, contentType);
  } catch {
    throw refuse('not_an_image');
  }
  const { width, height, thumbnail } = decoded;
  const body = decoded.withoutMetadata ?? object.body;
  if (decoded.withoutMetadata || object.contentType !== contentType) {
    await store.put(imageName, body, contentType);
  }
  const thumbnailName = thumbnailNameFor(imageName);
  await store.put(thumbnailName, thumbnail, 'image/webp');
  return {
    imageName,
    contentType,
    byteSize: body.length,
    width,
    height,
    thumbnailName,
    thumbnailBytes: thumbnail.length,
  };
}

/** Where the thumbnail of an upload lives (thumbs/<the upload's id>.webp). */
export function thumbnailNameFor(imageName: string): string {
  const id = imageName.slice(UPLOAD_FOLDER.length + 1).replace(/\.[a-z0-9]+$/, '');
  return `${THUMBNAIL_FOLDER}/${id}.webp`;
}

/** Removes an image and its thumbnail from the store. */
export async function deleteImage(
  store: ObjectStore,
  image: { imageName: string | null; thumbnailName: string | null },
): Promise<void> {
  await Promise.all(
    [image.imageName, image.thumbnailName]
      .filter((name): name is string => Boolean(name))
      .map((name) => store.delete(name)),
  );
}
