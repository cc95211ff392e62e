import type { Readable } from 'node:stream';

/** Where uploaded files live: the embedded store under DATA_DIR, or any S3-compatible store. */
export interface ObjectStore {
  /**
   * A URL that allows reading `objectName` until it expires. Only reading: uploads reach a
   * store through the server, which checks their bytes first (server/domain/uploads).
   */
  signedUrl(objectName: string, method: 'GET', expiresInSeconds?: number): Promise<string>;
  put(objectName: string, body: Buffer, contentType: string): Promise<void>;
  get(objectName: string): Promise<{ body: Buffer; contentType: string } | undefined>;
  /**
   * Writes a stream of any length without holding it in memory (archives); the object appears
   * whole or not at all. Answers how many bytes were written.
   */
  putStream(objectName: string, body: Readable, contentType: string): Promise<number>;
  /** Reads an object as a stream, with its length, or undefined when there is none. */
  getStream(
    objectName: string,
  ): Promise<{ body: Readable; contentType: string; byteSize: number } | undefined>;
  delete(objectName: string): Promise<void>;
  /** The names of every stored object (backup, restore and moving the store). */
  list(): AsyncIterable<string>;
  /** Resolves when the store can take files now (readiness); rejects with why not. */
  probe(): Promise<void>;
}

/** Signed URLs expire within 15 minutes, so that a shared one soon stops working. */
export const SIGNED_URL_TTL_SECONDS = 15 * 60;
/** Largest upload a signed-in member may send. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Largest upload without an account (the registration icon). */
export const MAX_ANONYMOUS_UPLOAD_BYTES = 2 * 1024 * 1024;

/** Object names are chosen by the server: a folder, a random id and an extension, nothing else. */
export const OBJECT_NAME_PATTERN = /^[a-z0-9-]+\/[A-Za-z0-9_-]{16,64}(\.[a-z0-9]{2,5})?$/;

/** The image types the server stores, by the extension it gives their object names. */
export const IMAGE_TYPE_OF_EXTENSION = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
} as const;
export type StoredImageType =
  (typeof IMAGE_TYPE_OF_EXTENSION)[keyof typeof IMAGE_TYPE_OF_EXTENSION];

/** The type an object's name promises (every stored upload matches its extension). */
export function imageTypeOfName(objectName: string): StoredImageType | undefined {
  const extension = objectName.match(/\.([a-z0-9]+)$/)?.[1];
  return extension && extension in IMAGE_TYPE_OF_EXTENSION
    ? IMAGE_TYPE_OF_EXTENSION[extension as keyof typeof IMAGE_TYPE_OF_EXTENSION]
    : undefined;
}
