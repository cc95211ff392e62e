import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { S3Config } from '../config';
import { systemClock } from '../lib/clock';
import { createFileUrls } from './fileUrls';
import { createLocalStore } from './localStore';
import type { ObjectStore } from './objectStore';

/**
 * The embedded store under `root`, opened by a command rather than a server: it copies files
 * and never signs a URL, so its signing key is a throwaway.
 */
export function localStoreAt(root: string): ObjectStore {
  const urls = createFileUrls({
    publicUrl: 'http://localhost',
    secret: randomBytes(32).toString('base64'),
    clock: systemClock(),
  });
  return createLocalStore({ root, urls });
}

/** The store a server on this configuration uses: the S3 bucket, or DATA_DIR/files. */
export async function configuredStore(config: {
  dataDir: string;
  s3: S3Config | undefined;
}): Promise<ObjectStore> {
  if (!config.s3) return localStoreAt(path.join(config.dataDir, 'files'));
  const { createS3Store } = await import('./s3Store');
  return createS3Store(config.s3, systemClock());
}

export async function countObjects(store: ObjectStore): Promise<number> {
  let count = 0;
  for await (const _name of store.list()) count += 1;
  return count;
}

// Enough parallel requests to hide an object store's latency, few enough for a small machine.
const PARALLEL_COPIES = 8;

/** Copies every object of `from` into `to`, with its type; answers how many. */
export async function copyObjects(from: ObjectStore, to: ObjectStore): Promise<number> {
  let copied = 0;
  const running = new Set<Promise<void>>();
  for await (const name of from.list()) {
    const copy = (async () => {
      const object = await from.get(name);
      if (!object) return; // deleted since it was listed
      await to.put(name, object.body, object.contentType);
      copied += 1;
    })();
    running.add(copy);
    void copy.finally(() => running.delete(copy)).catch(() => undefined);
    if (running.size >= PARALLEL_COPIES) await Promise.race(running);
  }
  await Promise.all(running);
  return copied;
}
