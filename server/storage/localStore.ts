import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../domain/clock';
import { OBJECT_NAME_PATTERN, SIGNED_URL_TTL_SECONDS, type ObjectStore } from './objectStore';

export interface LocalStoreOptions {
  root: string;
  publicUrl: string;
  secret: string;
  clock: Clock;
}

export interface SignedRequest {
  method: 'GET' | 'PUT';
  objectName: string;
  expires: number;
  signature: string;
}

/** Files under DATA_DIR/files, reached through `/files/<name>` URLs signed with HMAC. */
export function createLocalStore(options: LocalStoreOptions): ObjectStore & {
  verify(request: SignedRequest): 'ok' | 'expired' | 'invalid';
} {
  const sign = (method: string, objectName: string, expires: number) =>
    createHmac('sha256', `files:${options.secret}`)
      .update(`${method}\n${objectName}\n${expires}`)
      .digest('base64url');
  const filePath = (objectName: string) => {
    if (!OBJECT_NAME_PATTERN.test(objectName)) throw new Error(`invalid object name ${objectName}`);
    return path.join(options.root, objectName);
  };

  return {
    async signedUrl(objectName, method, expiresInSeconds = SIGNED_URL_TTL_SECONDS) {
      filePath(objectName);
      const expires = Math.floor(options.clock.now().getTime() / 1000) + expiresInSeconds;
      const query = new URLSearchParams({
        method,
        expires: String(expires),
        signature: sign(method, objectName, expires),
      });
      return `${options.publicUrl}/files/${objectName}?${query}`;
    },
    async put(objectName, body, contentType) {
      const target = filePath(objectName);
      await mkdir(path.dirname(target), { recursive: true });
      // The type first, then the body: a file that can be served always has its type.
      await writeWhole(`${target}.type`, contentType);
      try {
        await writeWhole(target, body);
      } catch (error) {
        await rm(`${target}.type`, { force: true });
        throw error;
      }
    },
    async get(objectName) {
      const target = filePath(objectName);
      try {
        const [body, contentType] = await Promise.all([
          readFile(target),
          readFile(`${target}.type`, 'utf8'),
        ]);
        return { body, contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async probe() {
      await mkdir(options.root, { recursive: true });
      await access(options.root, constants.W_OK);
    },
    async delete(objectName) {
      const target = filePath(objectName);
      await rm(target, { force: true });
      await rm(`${target}.type`, { force: true });
    },
    verify({ method, objectName, expires, signature }) {
      if (!OBJECT_NAME_PATTERN.test(objectName)) return 'invalid';
      const expected = Buffer.from(sign(method, objectName, expires));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
      return expires * 1000 < options.clock.now().getTime() ? 'expired' : 'ok';
    },
  };
}

/**
 * Writes under a temporary name and renames it into place, so a reader sees the old file or
 * the whole new one, never a part; a failed write (a full disk) leaves nothing behind.
 */
async function writeWhole(target: string, data: Buffer | string): Promise<void> {
  const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
