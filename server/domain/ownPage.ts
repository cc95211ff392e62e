import { and, Column, eq, inArray, is, type SQL, type SQLWrapper } from 'drizzle-orm';
import { memorialPages, users } from '../db/schema';

/**
 * The member's own page: the memorial page of type 'self' that the member owns. `member` is
 * a member's id or the column that holds one (users.id, for a join from users), or several
 * members: a list of ids or a subquery answering them.
 * Every query that finds a member's own page asks this, so "own" means one thing throughout.
 */
export function ownMemorialPage(
  member: string | Column | readonly string[] | SQLWrapper = users.id,
): SQL {
  const owner =
    typeof member === 'string' || is(member, Column)
      ? eq(memorialPages.ownerUserId, member)
      : inArray(memorialPages.ownerUserId, member as readonly string[] | SQLWrapper);
  return and(owner, eq(memorialPages.type, 'self'))!;
}
