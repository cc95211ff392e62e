import { and, asc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { ServedOf } from '../../../contract/endpoint';
import type { pageAdmin } from '../../../contract/memorial';
import type { Db } from '../../db/database';
import { createKeyBatcher } from '../../db/keyBatcher';
import { preparedPerDatabase } from '../../db/prepared';
import { memorialPageMembers, shareTokens, users } from '../../db/schema';
import { notFound } from '../errors';
import { memoizePerOwner } from '../../lib/memoizePerOwner';
import { areConnected } from '../connections';
import { certificatedSql } from '../deathDetection/settings';
import { isUuid, requireAdmin } from './access';
import type { Clock } from '../../lib/clock';
import type { MemorialDeps } from './memorialDeps';
import { viewUrl } from '../../storage/viewUrls';
import { mayViewMemberIcons } from '../uploads/viewing';

/** A page's admin as the page's reads list them (the contract's `pageAdmin`). */
export type AdminView = ServedOf<typeof pageAdmin>;

/**
 * The admins of the batch's pages, earliest first; a member who left is not listed. One
 * query, prepared once per database: it runs on every page view.
 */
const pagesAdmins = preparedPerDatabase((db) =>
  db
    .select({
      pageId: memorialPageMembers.memorialPageId,
      userId: users.id,
      lastName: users.lastName,
      firstName: users.firstName,
      lastNameKana: users.lastNameKana,
      firstNameKana: users.firstNameKana,
      iconName: users.iconName,
      certificated: certificatedSql(users.id, sql.placeholder('now')),
    })
    .from(memorialPageMembers)
    .innerJoin(users, eq(users.id, memorialPageMembers.userId))
    .where(
      and(
        sql`${memorialPageMembers.memorialPageId} = any(${sql.placeholder('pageIds')}::uuid[])`,
        eq(memorialPageMembers.role, 'admin'),
        ne(users.status, 'deleted'),
      ),
    )
    .orderBy(asc(memorialPageMembers.createdAt))
    .prepare('memorial_page_admins'),
);

type AdminRow = Awaited<ReturnType<ReturnType<typeof pagesAdmins>['execute']>>[number];

/**
 * The admin lists asked for in one turn of the event loop, read by one query per database
 * and clock (keyBatcher.ts), like the access read before it: afresh for every batch, with
 * the badge judged at the moment the batch is sent.
 */
const adminRowsOf = preparedPerDatabase((db) =>
  memoizePerOwner((clock: Clock) =>
    createKeyBatcher<string, AdminRow[]>(async (pageIds) => {
      const rows = await pagesAdmins(db).execute({
        pageIds,
        now: clock.now().toISOString(),
      });
      const byPage = new Map<string, AdminRow[]>();
      for (const row of rows) byPage.set(row.pageId, [...(byPage.get(row.pageId) ?? []), row]);
      return byPage;
    }),
  ),
);

/**
 * The page's admins, earliest first, each with a signed icon URL when the caller (undefined:
 * signed out) may see members' icons.
 */
export async function listAdmins(
  deps: MemorialDeps,
  pageId: string,
  callerId: string | undefined,
): Promise<AdminView[]> {
  const rows = (await adminRowsOf(deps.db)(deps.clock)(pageId.toLowerCase())) ?? [];
  const withIcons = mayViewMemberIcons(callerId);
  return Promise.all(
    rows.map(async ({ iconName, pageId: _pageId, ...admin }) => ({
      ...admin,
      iconUrl: withIcons ? await viewUrl(deps, iconName) : null,
      role: 'admin' as const,
    })),
  );
}

/** Makes the member an admin of the page (a viewer is promoted). */
export async function makeAdmin(db: Db, pageId: string, userId: string): Promise<void> {
  await db
    .insert(memorialPageMembers)
    .values({ memorialPageId: pageId, userId, role: 'admin' })
    .onConflictDoUpdate({
      target: [memorialPageMembers.memorialPageId, memorialPageMembers.userId],
      set: { role: 'admin' },
    });
}

/** True when the member accepted a live admin invitation (share token) to this page. */
async function holdsAdminInvitation(deps: MemorialDeps, pageId: string, userId: string) {
  const rows = await deps.db
    .select({ id: shareTokens.id })
    .from(shareTokens)
    .where(
      and(
        eq(shareTokens.memorialPageId, pageId),
        eq(shareTokens.redeemedBy, userId),
        eq(shareTokens.setAdmin, true),
        isNull(shareTokens.expiredAt),
        gt(shareTokens.expiresAt, deps.clock.now()),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * POST add_memorial_page_admin: an invitee adds themself with the admin invitation they
 * accepted (create_connection_to_inviting_user), or an admin adds one of their connections
 * or a viewer of the page. Anyone else learns nothing (404/403 as for the page).
 */
export async function addAdmin(
  deps: MemorialDeps,
  pageId: string,
  adminUserId: string,
  callerId: string,
): Promise<void> {
  if (!isUuid(pageId) || !isUuid(adminUserId)) throw notFound('memorial page');
  if (adminUserId === callerId && (await holdsAdminInvitation(deps, pageId, callerId))) {
    await makeAdmin(deps.db, pageId, callerId);
    return;
  }
  await requireAdmin(deps.db, pageId, callerId);
  if (adminUserId === callerId) return;
  const [membership] = await deps.db
    .select({ role: memorialPageMembers.role })
    .from(memorialPageMembers)
    .where(
      and(
        eq(memorialPageMembers.memorialPageId, pageId),
        eq(memorialPageMembers.userId, adminUserId),
      ),
    );
  const reachable = membership || (await areConnected(deps.db, callerId, adminUserId));
  if (!reachable) throw notFound('user');
  await makeAdmin(deps.db, pageId, adminUserId);
}
