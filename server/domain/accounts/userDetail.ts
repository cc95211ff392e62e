import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { AccountDeps } from './deps';
import { iconUrlOf } from './signIn';

export interface UserDetail {
  id: string;
  username: string;
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  userIconUrl: string | null;
}

/** An active member's public profile; undefined for an unknown, inactive or deleted id. */
export async function userDetail(
  deps: AccountDeps,
  userId: string,
): Promise<UserDetail | undefined> {
  const [row] = await deps.db
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
    .where(and(eq(users.id, userId), eq(users.status, 'active')));
  if (!row) return undefined;
  const { iconName, ...detail } = row;
  return { ...detail, userIconUrl: await iconUrlOf(deps, iconName) };
}
