import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { invalid, notFound } from '../errors';
import { OBJECT_NAME_PATTERN } from '../../storage/objectStore';
import { claimUpload, releaseUploads } from '../uploads/uploads';
import { nameReadingOf } from '../../../contract/rules/nameReading';
import type { ServedOf } from '../../../contract/endpoint';
import type { ProfileUpdateInput } from '../../../contract/rules/social';
import type { SocialDeps } from './socialDeps';
import type { profileView } from '../../../contract/social';

/** The profile with its icon's object name (the route adds the signed `iconUrl`). */
export type Profile = Omit<ServedOf<typeof profileView>, 'iconUrl'>;

const profileColumns = {
  userId: users.id,
  email: users.email,
  lastName: users.lastName,
  firstName: users.firstName,
  lastNameKana: users.lastNameKana,
  firstNameKana: users.firstNameKana,
  address: users.address,
  birthdate: users.birthdate,
  sexCode: users.sexCode,
  iconName: users.iconName,
  searchable: users.searchable,
};

/** The signed-in member's own profile as my page shows it. */
export async function readProfile(
  { db }: Pick<SocialDeps, 'db'>,
  userId: string,
): Promise<Profile> {
  const [row] = await db.select(profileColumns).from(users).where(eq(users.id, userId));
  if (!row) throw notFound('member');
  return row;
}

/**
 * Applies the fields given. A change of any name recomputes name_reading with the shared
 * normaliser, and the search grams follow it (a trigger of 0050_social.sql). A new icon must
 * be the member's own checked upload; the replaced one's files go.
 */
export async function updateProfile(
  deps: SocialDeps,
  userId: string,
  input: ProfileUpdateInput,
): Promise<Profile> {
  const { db } = deps;
  const at = deps.clock.now();
  if (input.icon_name && !OBJECT_NAME_PATTERN.test(input.icon_name)) {
    throw invalid([{ field: 'icon_name', code: 'icon_name_invalid' }]);
  }
  const current = await readProfile(deps, userId);
  const iconChanged = input.icon_name !== undefined && input.icon_name !== current.iconName;
  const icon = { kind: 'member_icon', id: userId } as const;
  if (iconChanged && input.icon_name) {
    await claimUpload(db, {
      objectName: input.icon_name,
      ownerUserId: userId,
      use: icon,
      field: 'icon_name',
    });
  }
  const names = {
    lastName: input.last_name ?? current.lastName,
    firstName: input.first_name ?? current.firstName,
    lastNameKana: input.last_name_kana ?? current.lastNameKana,
    firstNameKana: input.first_name_kana ?? current.firstNameKana,
  };
  const [row] = await db
    .update(users)
    .set({
      ...names,
      nameReading: nameReadingOf(names),
      ...(input.address !== undefined ? { address: input.address } : {}),
      ...(input.birthdate !== undefined ? { birthdate: input.birthdate } : {}),
      ...(input.sex_code !== undefined ? { sexCode: input.sex_code } : {}),
      ...(input.icon_name !== undefined ? { iconName: input.icon_name } : {}),
      ...(input.searchable !== undefined ? { searchable: input.searchable } : {}),
      updatedAt: at,
    })
    .where(eq(users.id, userId))
    .returning(profileColumns);
  if (iconChanged) await releaseUploads(deps, icon, [current.iconName]);
  return row!;
}
