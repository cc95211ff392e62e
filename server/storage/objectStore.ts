/** Where uploaded files live: the embedded store under DATA_DIR, or any S3-compatible store. */
export interface ObjectStore {
  /** A URL that allows exactly `method` on `objectName` until it expires. */
  signedUrl(objectName: string, method: 'GET' | 'PUT', expiresInSeconds?: number): Promise<string>;
  put(objectName: string, body: Buffer, contentType: string): Promise<void>;
  get(objectName: string): Promise<{ body: Buffer; contentType: string } | undefined>;
  delete(objectName: string): Promise<void>;
  /** Resolves when the store can take files now (readiness); rejects with why not. */
  probe(): Promise<void>;
}

/** design.md §5: signed URLs expire within 15 minutes. */
export const SIGNED_URL_TTL_SECONDS = 15 * 60;
/** Largest upload the stores accept. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Object names are chosen by the server: a folder, a random id and an extension, nothing else. */
export const OBJECT_NAME_PATTERN = /^[a-z0-9-]+\/[A-Za-z0-9_-]{16,64}(\.[a-z0-9]{2,5})?$/;
