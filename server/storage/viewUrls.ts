import type { ObjectStore } from './objectStore';
import { SIGNED_URL_TTL_SECONDS } from './objectStore';
import type { Clock } from '../domain/clock';

/**
 * Signed GET URLs for the lists, reused while they have most of their life ahead: a page
 * of 200 photos would otherwise sign 400 URLs on every read. A URL is handed out again
 * only while at least two thirds of its 15 minutes remain, so a reader always has 10
 * minutes or more to load it. Per store, bounded in size (oldest entries leave first).
 */
const REUSE_MS = (SIGNED_URL_TTL_SECONDS * 1000) / 3;
const MAX_ENTRIES = 50_000;

const caches = new WeakMap<ObjectStore, Map<string, { url: string; signedAt: number }>>();

export async function viewUrl(
  deps: { store: ObjectStore; clock: Clock },
  name: string | null,
): Promise<string | null> {
  if (!name) return null;
  let cache = caches.get(deps.store);
  if (!cache) {
    cache = new Map();
    caches.set(deps.store, cache);
  }
  const now = deps.clock.now().getTime();
  const cached = cache.get(name);
  if (cached && now - cached.signedAt >= 0 && now - cached.signedAt < REUSE_MS) return cached.url;
  const url = await deps.store.signedUrl(name, 'GET');
  cache.delete(name);
  cache.set(name, { url, signedAt: now });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return url;
}
