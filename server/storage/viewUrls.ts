import type { ObjectStore } from './objectStore';
import { SIGNED_URL_TTL_SECONDS } from './objectStore';
import type { Clock } from '../lib/clock';

/**
 * Signed GET URLs for the lists, reused while they have most of their life ahead: a page
 * of 200 photos would otherwise sign 400 URLs on every read. A URL is handed out again
 * only while at least two thirds of its 15 minutes remain, so a reader always has 10
 * minutes or more to load it. Bounded in size (oldest entries leave first).
 */
export const URL_REUSE_MS = (SIGNED_URL_TTL_SECONDS * 1000) / 3;
const MAX_ENTRIES = 50_000;

/**
 * The reuse window `now` falls in. An answer made of signed URLs names it in its version: a
 * copy held from the same window has URLs at most one window old, with 5 minutes or more to
 * live, and a later window makes a new answer.
 */
export const urlWindowOf = (clock: Clock): number =>
  Math.floor(clock.now().getTime() / URL_REUSE_MS);

/**
 * `store` with a cache of the signed GET URLs it has handed out, made once per application
 * (server/app.ts): a URL is handed out again while it has most of its life ahead.
 */
export function withViewUrlCache(store: ObjectStore, clock: Clock): ObjectStore {
  const viewUrlCache = new Map<string, { url: string; signedAt: number }>();
  return {
    put: (name, body, contentType) => store.put(name, body, contentType),
    get: (name) => store.get(name),
    putStream: (name, body, contentType) => store.putStream(name, body, contentType),
    getStream: (name) => store.getStream(name),
    delete: (name) => store.delete(name),
    list: () => store.list(),
    probe: () => store.probe(),
    signedUrl: async (name, method, expiresInSeconds) => {
      if (method !== 'GET' || expiresInSeconds !== undefined) {
        return store.signedUrl(name, method, expiresInSeconds);
      }
      const now = clock.now().getTime();
      let entry = viewUrlCache.get(name);
      if (!entry || now - entry.signedAt < 0 || now - entry.signedAt >= URL_REUSE_MS) {
        entry = { url: await store.signedUrl(name, 'GET'), signedAt: now };
        viewUrlCache.delete(name);
        viewUrlCache.set(name, entry);
        if (viewUrlCache.size > MAX_ENTRIES) viewUrlCache.delete(viewUrlCache.keys().next().value!);
      }
      return entry.url;
    },
  };
}

/** The signed GET URL of an object, or null for none. */
export async function viewUrl(
  deps: { store: ObjectStore },
  name: string | null,
): Promise<string | null> {
  return name ? deps.store.signedUrl(name, 'GET') : null;
}
