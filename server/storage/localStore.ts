import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileUrls } from './fileUrls';
import { OBJECT_NAME_PATTERN, type ObjectStore } from './objectStore';

/** Files under DATA_DIR/files, reached through `/files/<name>` URLs signed with HMAC. */
export function createLocalStore(options: { root: string; urls: FileUrls }): ObjectStore {
  const filePath = (objectName: string) => {
    if (!OBJECT_NAME_PATTERN.test(objectName)) throw new Error(`invalid object name ${objectName}`);
    return path.join(options.root, objectName);
  };

  return {
    async signedUrl(objectName, method, expiresInSeconds) {
      filePath(objectName);
      return options.urls.sign(objectName, method, expiresInSeconds);
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
    async putStream(objectName, body, contentType) {
      const target = filePath(objectName);
      await mkdir(path.dirname(target), { recursive: true });
      await writeWhole(`${target}.type`, contentType);
      try {
        return await writeWhole(target, body);
      } catch (error) {
        await rm(`${target}.type`, { force: true });
        throw error;
      }
    },
    async getStream(objectName) {
      const target = filePath(objectName);
      try {
        const [size, contentType] = await Promise.all([
          stat(target).then((stats) => stats.size),
          readFile(`${target}.type`, 'utf8'),
        ]);
        return { body: createReadStream(target), contentType, byteSize: size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
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
    async *list() {
      const entries = await readdir(options.root, { recursive: true }).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      });
      // Type files and unfinished writes sit beside the objects; only objects match the pattern.
      for (const entry of entries.sort()) {
        const name = entry.split(path.sep).join('/');
        if (OBJECT_NAME_PATTERN.test(name)) yield name;
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
  };
}

/**
 * Writes under a temporary name and renames it into place, so a reader sees the old file or
 * the whole new one, never a part; a failed write (a full disk) leaves nothing behind.
 */
async function writeWhole(target: string, data: Buffer | string | Readable): Promise<number> {
  const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
  try {
    if (typeof data === 'string' || Buffer.isBuffer(data)) await writeFile(temporary, data);
    else await pipeline(data, createWriteStream(temporary));
    const { size } = await stat(temporary);
    await rename(temporary, target);
    return size;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
