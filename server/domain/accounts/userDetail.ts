import { and, eq, sql } from 'drizzle-orm';
import { createKeyBatcher } from '../../db/keyBatcher';
import { preparedPerDatabase } from '../../db/prepared';
import { users } from '../../db/schema';
import { viewUrl } from '../../storage/viewUrls';
import type { UserDetail } from '../../../contract/accounts';
import type { AccountDeps } from './accountDeps';

const detailsQuery = preparedPerDatabase((db) =>
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
    .where(
      and(
        sql`${users.id} = any(${sql.placeholder('userIds')}::uuid[])`,
        eq(users.status, 'active'),
      ),
    )
    .prepare('user_details'),
);

type DetailRow = Awaited<ReturnType<ReturnType<typeof detailsQuery>['execute']>>[number];

/** One batcher per database: concurrent reads of user details share one query. */
const detailRowOf = preparedPerDatabase((db) =>
  createKeyBatcher<string, DetailRow>(async (userIds) => {
    const rows = await detailsQuery(db).execute({ userIds });
    return new Map(rows.map((row) => [row.id, row]));
  }),
);

/** An active member's public profile; undefined for an unknown, inactive or deleted id. */
export async function userDetail(
  deps: AccountDeps,
  userId: string,
): Promise<UserDetail | undefined> {
  const row = await detailRowOf(deps.db)(userId);
  if (!row) return undefined;
  const { iconName, ...detail } = row;
  return { ...detail, userIconUrl: await viewUrl(deps, iconName) };
}
