import { and, count, desc, eq, or } from 'drizzle-orm';
import { tokyoToday } from '../../../contract/rules/account';
import type { ServedOf } from '../../../contract/endpoint';
import type { condolence } from '../../../contract/memorial';
import { condolences, flowerOfferings, users } from '../../db/schema';
import { notFound } from '../errors';
import { isUuid, type PageAccess } from './access';
import type { MemorialDeps } from './memorialDeps';

export type CondolenceView = ServedOf<typeof condolence>;

const condolenceColumns = {
  id: condolences.id,
  memorialPageId: condolences.memorialPageId,
  authorUserId: condolences.authorUserId,
  authorLastName: users.lastName,
  authorFirstName: users.firstName,
  body: condolences.body,
  status: condolences.status,
  createdAt: condolences.createdAt,
};

/**
 * The guest book (記帳), newest first. Admins see every message with its status; everyone
 * else sees approved messages and their own, whatever the admins decided about them.
 */
export async function listCondolences(
  deps: MemorialDeps,
  access: PageAccess,
  userId: string | undefined,
): Promise<CondolenceView[]> {
  const visible =
    access.role === 'admin'
      ? undefined
      : userId
        ? or(eq(condolences.status, 'approved'), eq(condolences.authorUserId, userId))
        : eq(condolences.status, 'approved');
  return deps.db
    .select(condolenceColumns)
    .from(condolences)
    .innerJoin(users, eq(users.id, condolences.authorUserId))
    .where(and(eq(condolences.memorialPageId, access.page.id), visible))
    .orderBy(desc(condolences.createdAt));
}

/** A visitor's message waits for an admin; an admin's own message needs no approval. */
export async function addCondolence(
  deps: MemorialDeps,
  access: PageAccess,
  userId: string,
  body: string,
): Promise<CondolenceView> {
  const byAdmin = access.role === 'admin';
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(condolences)
    .values({
      memorialPageId: access.page.id,
      authorUserId: userId,
      body,
      status: byAdmin ? 'approved' : 'pending',
      createdAt: now,
      ...(byAdmin ? { decidedAt: now, decidedBy: userId } : {}),
    })
    .returning({ id: condolences.id });
  return condolenceById(deps, row!.id);
}

async function condolenceById(deps: MemorialDeps, id: string): Promise<CondolenceView> {
  const [view] = await deps.db
    .select(condolenceColumns)
    .from(condolences)
    .innerJoin(users, eq(users.id, condolences.authorUserId))
    .where(eq(condolences.id, id));
  if (!view) throw notFound('condolence');
  return view;
}

/** An admin approves or hides a message of the page. */
export async function decideCondolence(
  deps: MemorialDeps,
  pageId: string,
  condolenceId: string,
  adminId: string,
  status: 'approved' | 'hidden',
): Promise<CondolenceView> {
  if (!isUuid(condolenceId)) throw notFound('condolence');
  const updated = await deps.db
    .update(condolences)
    .set({ status, decidedAt: deps.clock.now(), decidedBy: adminId })
    .where(and(eq(condolences.id, condolenceId), eq(condolences.memorialPageId, pageId)))
    .returning({ id: condolences.id });
  if (updated.length === 0) throw notFound('condolence');
  return condolenceById(deps, condolenceId);
}

export async function flowerCount(deps: MemorialDeps, pageId: string): Promise<number> {
  const [row] = await deps.db
    .select({ total: count() })
    .from(flowerOfferings)
    .where(eq(flowerOfferings.memorialPageId, pageId));
  return row?.total ?? 0;
}

/** One flower (献花) per member and day in Japan; offering again that day changes nothing. */
export async function offerFlower(
  deps: MemorialDeps,
  pageId: string,
  userId: string,
): Promise<{ flowerCount: number; offeredToday: true }> {
  await deps.db
    .insert(flowerOfferings)
    .values({
      memorialPageId: pageId,
      userId,
      offeredOn: tokyoToday(deps.clock.now()),
      createdAt: deps.clock.now(),
    })
    .onConflictDoNothing();
  return { flowerCount: await flowerCount(deps, pageId), offeredToday: true };
}
