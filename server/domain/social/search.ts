import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { connectionRequests, connections, userSearchGrams, users } from '../../db/schema';
import { normalizeReading } from '../../../contract/rules/nameReading';
import { pendingRequestsBetween } from '../connections';
import type { SocialDeps } from './socialDeps';
import { asListedTo, memberCards, type MemberCard } from './members';

/** Where the searching member stands with a member found. */
export type ConnectionState = 'connected' | 'request_sent' | 'request_received' | 'none';

export interface SearchResult extends MemberCard {
  connection: ConnectionState;
  /** The pending request between the two, so that it can be answered from the results. */
  requestId: string | null;
}

/**
 * The grams a normalised query must all be found under: the query itself when it is one
 * character, else its distinct 2-character pieces (the side table holds both widths).
 */
export function queryGrams(reading: string): string[] {
  const characters = Array.from(reading);
  if (characters.length <= 1) return characters;
  const grams = new Set<string>();
  for (let i = 0; i + 1 < characters.length; i += 1) grams.add(characters[i]! + characters[i + 1]!);
  return [...grams];
}

/** Where a page of results ends: the group, then the reading and id of its last member. */
export interface SearchCursor {
  group: 'prefix' | 'inner';
  reading: string;
  userId: string;
}

interface Hit {
  userId: string;
  reading: string;
}

/**
 * Members whose name, written or read, contains `query` after both are normalised
 * (contract/rules/nameReading.ts). Members whose reading starts with the query (the family
 * name's kana) come first, then every other match; each group in reading order (code
 * points: the kana order of the syllabary). Only active, searchable members appear (the gram
 * table and the prefix index hold no others); the searcher is left out. Pages continue from
 * a cursor, so that no page sorts more than the rows it shows: see docs/social.md.
 */
export async function searchMembers(
  { db }: Pick<SocialDeps, 'db'>,
  searcherId: string,
  query: string,
  page: { cursor?: SearchCursor; limit: number },
): Promise<{ items: SearchResult[]; nextCursor: SearchCursor | null }> {
  const reading = normalizeReading(query);
  const grams = queryGrams(reading);
  if (grams.length === 0) return { items: [], nextCursor: null };
  const { cursor, limit } = page;

  const hits: (Hit & { group: SearchCursor['group'] })[] = [];
  if (!cursor || cursor.group === 'prefix') {
    const prefix = await prefixMatches(db, searcherId, reading, cursor, limit + 1);
    hits.push(...prefix.map((hit) => ({ ...hit, group: 'prefix' as const })));
  }
  if (hits.length <= limit) {
    const after = cursor?.group === 'inner' ? cursor : undefined;
    const gram = scanGram(grams);
    const inner = await innerMatches(db, searcherId, reading, gram, after, limit + 1 - hits.length);
    hits.push(...inner.map((hit) => ({ ...hit, group: 'inner' as const })));
  }
  const shown = hits.slice(0, limit);
  const last = shown.at(-1);
  const nextCursor =
    hits.length > limit && last
      ? { group: last.group, reading: last.reading, userId: last.userId }
      : null;

  const ids = shown.map((hit) => hit.userId);
  const cards = new Map(
    (await asListedTo({ db }, searcherId, [...(await memberCards(db, ids)).values()])).map(
      (card) => [card.userId, card],
    ),
  );
  const states = await connectionStates(db, searcherId, ids);
  const items = ids.flatMap((id) => {
    const card = cards.get(id);
    if (!card) return [];
    return [{ ...card, ...(states.get(id) ?? { connection: 'none' as const, requestId: null }) }];
  });
  return { items, nextCursor };
}

/** Readings starting with `reading`: a range scan of users_search_prefix_idx. */
function prefixMatches(
  db: Db,
  searcherId: string,
  reading: string,
  after: SearchCursor | undefined,
  limit: number,
): Promise<Hit[]> {
  const key = sql`${users.nameReading} COLLATE "C"`;
  // Every reading that starts with `reading` lies in [reading, reading + U+10FFFF) in code
  // point order. Spelt as a range (not LIKE) so that the index is used when the planner
  // sees the query before its parameters.
  const upper = `${reading}\u{10ffff}`;
  return db
    .select({ userId: users.id, reading: users.nameReading })
    .from(users)
    .where(
      and(
        // Written out (not as parameters) so that the planner matches the partial index.
        sql`${users.status} = 'active' AND ${users.searchable}`,
        sql`${key} >= ${reading} AND ${key} < ${upper}`,
        ne(users.id, searcherId),
        after
          ? sql`(${key}, ${users.id}) > (${after.reading} COLLATE "C", ${after.userId})`
          : undefined,
      ),
    )
    .orderBy(asc(key), asc(users.id))
    .limit(limit);
}

/** Matches anywhere but at the start, read from one gram's rows in reading order. */
function innerMatches(
  db: Db,
  searcherId: string,
  reading: string,
  gram: string,
  after: SearchCursor | undefined,
  limit: number,
): Promise<Hit[]> {
  return db
    .select({ userId: userSearchGrams.userId, reading: userSearchGrams.reading })
    .from(userSearchGrams)
    .where(
      and(
        eq(userSearchGrams.gram, gram),
        sql`strpos(${userSearchGrams.reading}, ${reading}) > 1`,
        ne(userSearchGrams.userId, searcherId),
        after
          ? sql`(${userSearchGrams.reading}, ${userSearchGrams.userId}) > (${after.reading}, ${after.userId})`
          : undefined,
      ),
    )
    .orderBy(asc(userSearchGrams.reading), asc(userSearchGrams.userId))
    .limit(limit);
}

/**
 * The gram whose rows the inner scan reads. A gram with a character other than hiragana
 * (kanji, latin) is far rarer among readings than a kana pair, so it is preferred; otherwise
 * the first pair, which is as selective as any in a family or given name. (Counting each
 * gram's rows to find the rarest cost more than it saved.)
 */
export function scanGram(grams: string[]): string {
  return grams.find((gram) => /[^\u3040-\u309f]/u.test(gram)) ?? grams[0]!;
}

async function connectionStates(
  db: Db,
  userId: string,
  others: string[],
): Promise<Map<string, { connection: ConnectionState; requestId: string | null }>> {
  const states = new Map<string, { connection: ConnectionState; requestId: string | null }>();
  if (others.length === 0) return states;
  const pending = await db
    .select({
      id: connectionRequests.id,
      fromUserId: connectionRequests.fromUserId,
      toUserId: connectionRequests.toUserId,
    })
    .from(connectionRequests)
    .where(pendingRequestsBetween(userId, others));
  for (const request of pending) {
    const sent = request.fromUserId === userId;
    states.set(sent ? request.toUserId : request.fromUserId, {
      connection: sent ? 'request_sent' : 'request_received',
      requestId: request.id,
    });
  }
  const connected = await db
    .select({ otherUserId: connections.otherUserId })
    .from(connections)
    .where(and(eq(connections.userId, userId), inArray(connections.otherUserId, others)));
  for (const row of connected) {
    states.set(row.otherUserId, { connection: 'connected', requestId: null });
  }
  return states;
}
