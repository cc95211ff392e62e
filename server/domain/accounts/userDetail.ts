import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { users } from '../../db/schema';
import { viewUrl } from '../../storage/viewUrls';
import type { AccountDeps } from './deps';

export interface UserDetail {
  id: string;
  username: string;
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  userIconUrl: string | null;
}

const prepareDetailQuery = (db: Db) =>
  db
    .select({
      id: users.id,
      username: users.username,
      lastName: users.lastName,
      firstName: users.firstName,
      lastNameKana: users.lastNameKana,
      firstNameKana: users.firstNameKana,
      iconName: users.iconName,
    })
    .from(users)
    .where(and(eq(users.id, sql.placeholder('userId')), eq(users.status, 'active')))
    .prepare('user_detail');

/**
 * The query is built and named once per database: building it anew was a third of the
 * read's cost on PostgreSQL, and a named statement is parsed once per connection.
 */
const detailQueries = new WeakMap<Db, ReturnType<typeof prepareDetailQuery>>();

function detailQueryOf(db: Db) {
  let query = detailQueries.get(db);
  if (!query) {
    query = prepareDetailQuery(db);
    detailQueries.set(db, query);
  }
  return query;
}

/** An active member's public profile; undefined for an unknown, inactive or deleted id. */
export async function userDetail(
  deps: AccountDeps,
  userId: string,
): Promise<UserDetail | undefined> {
  const [row] = await detailQueryOf(deps.db).execute({ userId });
  if (!row) return undefined;
  const { iconName, ...detail } = row;
  return { ...detail, userIconUrl: await viewUrl(deps, iconName) };
}
