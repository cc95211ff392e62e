import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
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
      await writeFile(target, body);
      await writeFile(`${target}.type`, contentType);
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
    async delete(objectName) {
      const target = filePath(objectName);
      await rm(target, { force: true });
      await rm(`${target}.type`, { force: true });
    },
  };
}
