import { and, eq, sql } from 'drizzle-orm';
import { preparedPerDatabase } from '../../db/prepared';
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

const detailQuery = preparedPerDatabase((db) =>
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
    .prepare('user_detail'),
);

/** An active member's public profile; undefined for an unknown, inactive or deleted id. */
export async function userDetail(
  deps: AccountDeps,
  userId: string,
): Promise<UserDetail | undefined> {
  const [row] = await detailQuery(deps.db).execute({ userId });
  if (!row) return undefined;
  const { iconName, ...detail } = row;
  return { ...detail, userIconUrl: await viewUrl(deps, iconName) };
}
