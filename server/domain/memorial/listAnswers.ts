import { onePerOwner } from '../../onePerOwner';
import type { ObjectStore } from '../../storage/objectStore';
import { URL_REUSE_MS } from '../../storage/viewUrls';
import { keptAnswersPer, keptJson, type KeptBody } from '../keptAnswers';
import type { PageAccess } from './access';
import type { MemorialDeps } from './deps';

export type KeptList = 'album' | 'history';

interface KeptAnswer extends KeptBody {
  listsVersion: number;
  keptAt: number;
  /** When the oldest signed URL in it may no longer be handed out (viewUrls.ts). */
  usableUntil: number;
}

/** Memory for kept answers per instance; the least recently used leave first past it. */
export const KEPT_ANSWER_BYTES = 64 * 1024 * 1024;

/** Per instance: each application has its own file store object. */
const storeOf = keptAnswersPer<ObjectStore, KeptAnswer>(KEPT_ANSWER_BYTES);

/**
 * A page's album or history as the JSON of the answer (and its gzip copy), made once and
 * handed out again while it is current: a page of 200 photos and 500 entries answers some
 * 100-150 kB, and making that on every read (serialisation, encoding, garbage) was most of a
 * list call's time.
 *
 * Current means two things. The page's `lists_version`, which database triggers bump in the
 * same transaction as every album or history change, still equals the one the caller's
 * access query just read — so a change made through any instance is seen on the next read
 * everywhere, and instances share nothing but the database. And every signed URL in it is
 * still within the reuse window of viewUrls.ts, so a reader gets as much URL life as an
 * answer made afresh would give. Whether the caller may see the page is decided before,
 * on every call, by that access query.
 */
export async function keptListAnswer(
  deps: MemorialDeps,
  access: PageAccess,
  list: KeptList,
  make: (deps: MemorialDeps) => Promise<unknown>,
): Promise<KeptBody> {
  const store = storeOf(deps.store);
  const key = `${list}:${access.page.id}`;
  const now = deps.clock.now().getTime();
  const kept = store.use(key);
  if (
    kept &&
    kept.listsVersion === access.listsVersion &&
    now >= kept.keptAt &&
    now < kept.usableUntil
  ) {
    return kept;
  }
  // Reads that find the answer stale together (the first burst after a change, or after the
  // URL window) share one making of it for the version they read, instead of one each.
  const building = buildsOf(deps.store);
  const buildKey = `${key}:${access.listsVersion}`;
  let answer = building.get(buildKey);
  if (!answer) {
    answer = makeAndKeep(deps, access, key, now, make).finally(() => building.delete(buildKey));
    building.set(buildKey, answer);
  }
  return answer;
}

/**
 * The answers being made, by list, page and version. A read may join a making started by an
 * earlier read of the same version: that making read its rows after its own version read,
 * and a change committed before the joining read would have bumped the version it saw, so
 * the rows are at least as new as the joining read needs.
 */
const buildsOf = onePerOwner((_store: ObjectStore) => new Map<string, Promise<KeptBody>>());

async function makeAndKeep(
  deps: MemorialDeps,
  access: PageAccess,
  key: string,
  now: number,
  make: (deps: MemorialDeps) => Promise<unknown>,
): Promise<KeptBody> {
  const store = storeOf(deps.store);
  const signings = { oldestSignedAt: Number.POSITIVE_INFINITY };
  // The rows are read after the version: they are at least as new as it says, never older.
  const answer = await keptJson(await make({ ...deps, signings }));
  const newest = store.use(key);
  if (!newest || newest.listsVersion <= access.listsVersion) {
    store.keep(key, {
      ...answer,
      listsVersion: access.listsVersion,
      keptAt: now,
      usableUntil: signings.oldestSignedAt + URL_REUSE_MS,
    });
  }
  return answer;
}
