import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { memorialPages, users } from '../../db/schema';
import { listablePageIds } from '../memorial/access';
import type { SocialDeps } from './socialDeps';
import { ownMemorialPage } from '../ownPage';

/** How another member appears in social lists: names, icon object name, own memorial page. */
export interface MemberCard {
  userId: string;
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  /** Object name of the icon; routes exchange it for a signed GET URL. */
  iconName: string | null;
  memorialPageId: string | null;
}

/** The columns of a MemberCard, for selects that join users to their own memorial page. */
export const memberCardColumns = {
  userId: users.id,
  lastName: users.lastName,
  firstName: users.firstName,
  lastNameKana: users.lastNameKana,
  firstNameKana: users.firstNameKana,
  iconName: users.iconName,
  memorialPageId: memorialPages.id,
};

/**
 * The cards of the given members, keyed by id (members that no longer exist are absent).
 * Takes a `Db`: connection requests read the cards inside their transactions.
 */
export async function memberCards(db: Db, userIds: string[]): Promise<Map<string, MemberCard>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select(memberCardColumns)
    .from(users)
    .leftJoin(memorialPages, ownMemorialPage())
    .where(inArray(users.id, userIds));
  return new Map(rows.map((row) => [row.userId, row]));
}

/**
 * The cards as `viewerId` may see them: a member's own page id is kept only when the viewer
 * may list that page (memorial/access.ts `listablePageIds`), so a `link` page's address never
 * reaches someone who was not given it.
 */
export async function asListedTo<T extends { memorialPageId: string | null }>(
  { db }: Pick<SocialDeps, 'db'>,
  viewerId: string,
  cards: T[],
): Promise<T[]> {
  const listable = await listablePageIds(
    db,
    viewerId,
    cards.map((card) => card.memorialPageId),
  );
  return cards.map((card) =>
    card.memorialPageId === null || listable.has(card.memorialPageId)
      ? card
      : { ...card, memorialPageId: null },
  );
}

/** Family name first, as names are written in Japanese. */
export function displayName(card: Pick<MemberCard, 'lastName' | 'firstName'>): string {
  return `${card.lastName} ${card.firstName}`.trim();
}

/** True for a member others may connect with: registered, activated and not deleted. */
export async function isActiveMember(
  { db }: Pick<SocialDeps, 'db'>,
  userId: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, 'active')))
    .limit(1);
  return rows.length > 0;
}
