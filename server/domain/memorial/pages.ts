import type { ServedOf } from '../../../contract/endpoint';
import type { memorialPage } from '../../../contract/memorial';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { createPageSchema, updatePageSchema } from '../../../contract/rules/memorial';
import type { Db } from '../../db/database';
import { memorialPageMembers, memorialPageProfiles, memorialPages } from '../../db/schema';
import { invalid } from '../errors';
import type { PageAccess } from './access';
import { anniversariesOf } from './anniversaries';
import type { MemorialDeps } from './memorialDeps';
import { claimUpload, releaseUploads, thumbnailNameFor } from '../uploads/uploads';
import { viewUrl } from '../../storage/viewUrls';
import { flowerCount } from './mourning';

export type CreatePageInput = z.infer<ReturnType<typeof createPageSchema>>;
export type UpdatePageInput = z.infer<ReturnType<typeof updatePageSchema>>;

/** The page as the API answers it (the contract's `memorialPage`). */
export type PageView = ServedOf<typeof memorialPage>;

/** The page as its reader sees it: profile, the reader's role and mode, services, flowers. */
export async function pageView(deps: MemorialDeps, access: PageAccess): Promise<PageView> {
  const { page } = access;
  return {
    ...page,
    memorialPageId: page.id,
    photoUrl: await viewUrl(deps, page.photoName),
    photoThumbnailUrl: await viewUrl(deps, page.photoName && thumbnailNameFor(page.photoName)),
    role: access.role,
    mode: access.mode,
    anniversaries: page.deathDate ? anniversariesOf(page.deathDate) : [],
    flowerCount: await flowerCount(deps, page.id),
  };
}

/** The member's own upload claimed as the page's photo (422 on `photo_name` otherwise). */
async function claimPagePhoto(db: Db, pageId: string, userId: string, photoName: string) {
  await claimUpload(db, {
    objectName: photoName,
    ownerUserId: userId,
    use: { kind: 'page_photo', id: pageId },
    field: 'photo_name',
  });
}

/** A page for another person or a pet; its creator becomes its first admin. */
export async function createPage(
  deps: MemorialDeps,
  userId: string,
  input: CreatePageInput,
): Promise<string> {
  const photoName = input.photo_name;
  return deps.db.transaction(async (tx) => {
    const [page] = await tx
      .insert(memorialPages)
      .values({
        type: input.type,
        lastName: input.last_name ?? '',
        firstName: input.first_name,
        lastNameKana: input.last_name_kana ?? '',
        firstNameKana: input.first_name_kana,
        createdBy: userId,
      })
      .returning({ id: memorialPages.id });
    const pageId = page!.id;
    if (photoName) await claimPagePhoto(tx, pageId, userId, photoName);
    await tx
      .update(memorialPageProfiles)
      .set({
        photoName: photoName ?? null,
        birthDate: input.birth_date ?? null,
        deathDate: input.death_date ?? null,
        animalKind: input.type === 'pet' ? input.animal_kind : null,
        ...(input.privacy ? { privacy: input.privacy } : {}),
        ...(input.searchable !== undefined ? { searchable: input.searchable } : {}),
      })
      .where(eq(memorialPageProfiles.id, pageId));
    await tx.insert(memorialPageMembers).values({ memorialPageId: pageId, userId, role: 'admin' });
    return pageId;
  });
}

/** Applies an admin's changes; fields left out stay as they are. */
export async function updatePage(
  deps: MemorialDeps,
  access: PageAccess & { userId: string },
  input: UpdatePageInput,
): Promise<void> {
  const { page } = access;
  const birthDate = input.birth_date === undefined ? page.birthDate : input.birth_date;
  const deathDate = input.death_date === undefined ? page.deathDate : input.death_date;
  if (birthDate && deathDate && deathDate < birthDate) {
    throw invalid([{ field: 'death_date', code: 'death_before_birth' }]);
  }
  const photoName = input.photo_name;
  const photoChanged = photoName !== undefined && photoName !== page.photoName;
  await deps.db.transaction(async (tx) => {
    if (photoChanged && photoName) {
      await claimPagePhoto(tx, page.id, access.userId, photoName);
    }
    await tx
      .update(memorialPages)
      .set({
        ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
        ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
        ...(input.last_name_kana !== undefined ? { lastNameKana: input.last_name_kana } : {}),
        ...(input.first_name_kana !== undefined ? { firstNameKana: input.first_name_kana } : {}),
        updatedAt: deps.clock.now(),
      })
      .where(eq(memorialPages.id, page.id));
    await tx
      .update(memorialPageProfiles)
      .set({
        ...(photoName !== undefined ? { photoName } : {}),
        birthDate,
        deathDate,
        ...(input.animal_kind !== undefined && page.type === 'pet'
          ? { animalKind: input.animal_kind }
          : {}),
        ...(input.privacy ? { privacy: input.privacy } : {}),
        ...(input.searchable !== undefined ? { searchable: input.searchable } : {}),
      })
      .where(eq(memorialPageProfiles.id, page.id));
  });
  // A replaced or removed photo's files go; the new one stays.
  if (photoChanged) {
    await releaseUploads(deps, { kind: 'page_photo', id: page.id }, [page.photoName]);
  }
}
