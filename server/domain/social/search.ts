import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  connectionRequests,
  connections,
  memorialPages,
  userSearchGrams,
  users,
} from '../../db/schema';
import { normalizeReading } from '../../../src/validation/nameReading';
import { memberCardColumns, ownMemorialPage, type MemberCard } from './members';

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

/**
 * Members whose name, written or read, contains `query` after both are normalised
 * (src/validation/nameReading.ts), most relevant first: an earlier match first (the reading
 * is stored kana first, so a match at the start of the family name's kana ranks highest),
 * then the shorter name (closer to a whole-name match), then the reading. Only active,
 * searchable members appear (the gram table holds no others); the searcher is left out.
 */
export async function searchMembers(
  db: Db,
  searcherId: string,
  query: string,
  page: { page: number; perPage: number },
): Promise<{ items: SearchResult[]; hasMore: boolean }> {
  const reading = normalizeReading(query);
  const grams = queryGrams(reading);
  if (grams.length === 0) return { items: [], hasMore: false };

  const candidates = db
    .select({ userId: userSearchGrams.userId })
    .from(userSearchGrams)
    .where(inArray(userSearchGrams.gram, grams))
    .groupBy(userSearchGrams.userId)
    .having(sql`count(*) = ${grams.length}`)
    .as('candidates');
  const position = sql<number>`strpos(${users.nameReading}, ${reading})`;
  const rows = await db
    .select(memberCardColumns)
    .from(candidates)
    .innerJoin(users, eq(users.id, candidates.userId))
    .leftJoin(memorialPages, ownMemorialPage)
    .where(
      and(
        sql`${position} > 0`,
        eq(users.status, 'active'),
        eq(users.searchable, true),
        ne(users.id, searcherId),
      ),
    )
    .orderBy(
      asc(position),
      asc(sql`char_length(${users.nameReading})`),
      asc(sql`${users.nameReading} COLLATE "C"`),
      asc(users.id),
    )
    .limit(page.perPage + 1)
    .offset((page.page - 1) * page.perPage);

  const found = rows.slice(0, page.perPage);
  const states = await connectionStates(
    db,
    searcherId,
    found.map((row) => row.userId),
  );
  return {
    items: found.map((row) => ({
      ...row,
      ...(states.get(row.userId) ?? { connection: 'none', requestId: null }),
    })),
    hasMore: rows.length > page.perPage,
  };
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
    .where(
      and(
        eq(connectionRequests.status, 'pending'),
        or(
          and(
            eq(connectionRequests.fromUserId, userId),
            inArray(connectionRequests.toUserId, others),
          ),
          and(
            eq(connectionRequests.toUserId, userId),
            inArray(connectionRequests.fromUserId, others),
          ),
        ),
      ),
    );
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
