import type { ObjectStore } from './objectStore';
import { SIGNED_URL_TTL_SECONDS } from './objectStore';
import type { Clock } from '../domain/clock';
import { onePerOwner } from '../onePerOwner';

/**
 * Signed GET URLs for the lists, reused while they have most of their life ahead: a page
 * of 200 photos would otherwise sign 400 URLs on every read. A URL is handed out again
 * only while at least two thirds of its 15 minutes remain, so a reader always has 10
 * minutes or more to load it. Per store, bounded in size (oldest entries leave first).
 */
export const URL_REUSE_MS = (SIGNED_URL_TTL_SECONDS * 1000) / 3;
const MAX_ENTRIES = 50_000;

const cacheOf = onePerOwner(
  (_store: ObjectStore) => new Map<string, { url: string; signedAt: number }>(),
);

/**
 * Given to viewUrl by whoever keeps a whole answer for later (the memorial list answers): it
 * learns when the oldest URL in the answer was signed, and so until when it may hand the
 * answer out under the same rule.
 */
export interface UrlSignings {
  oldestSignedAt: number;
}

export async function viewUrl(
  deps: { store: ObjectStore; clock: Clock; signings?: UrlSignings },
  name: string | null,
): Promise<string | null> {
  if (!name) return null;
  const cache = cacheOf(deps.store);
  const now = deps.clock.now().getTime();
  let entry = cache.get(name);
  if (!entry || now - entry.signedAt < 0 || now - entry.signedAt >= URL_REUSE_MS) {
    entry = { url: await deps.store.signedUrl(name, 'GET'), signedAt: now };
    cache.delete(name);
    cache.set(name, entry);
    if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  if (deps.signings) {
    deps.signings.oldestSignedAt = Math.min(deps.signings.oldestSignedAt, entry.signedAt);
  }
  return entry.url;
}
