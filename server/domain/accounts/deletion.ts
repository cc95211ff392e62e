import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import {
  accountTokens,
  connectionRequests,
  connections,
  externalIdentities,
  memorialPageMembers,
  memorialPages,
  users,
} from '../../db/schema';
import { withdrawExports } from '../dataExport/requests';
import { releaseUploads } from '../uploads/uploads';
import type { AccountDeps } from './accountDeps';
import { revokeAllOfUser } from './refreshTokens';

/**
 * DELETE /v1/user (docs/accounts.md, "Account deletion"). The users row stays, marked
 * deleted and stripped of contact and credential data, so that what other members keep
 * (letters received, pages shared with them, their posts) still has its author. Pages where
 * the member was the only member go; on shared pages the member leaves, and a page left
 * without an admin passes to its longest-standing member.
 */
export async function deleteAccount(
  deps: Pick<AccountDeps, 'db' | 'clock' | 'store'>,
  userId: string,
  /**
   * A released member's deletion (docs/after-death.md) leaves their own page as they chose:
   * the page stays with its membership, and the connections that are its audience stay too.
   */
  options: { keepPageId?: string } = {},
): Promise<void> {
  const now = deps.clock.now();
  const kept = options.keepPageId;
  await deps.db.transaction(async (tx) => {
    const memberships = await tx
      .select({ pageId: memorialPageMembers.memorialPageId })
      .from(memorialPageMembers)
      .where(
        kept
          ? and(
              eq(memorialPageMembers.userId, userId),
              ne(memorialPageMembers.memorialPageId, kept),
            )
          : eq(memorialPageMembers.userId, userId),
      );
    const pageIds = memberships.map((m) => m.pageId);
    if (pageIds.length > 0) {
      await tx
        .delete(memorialPages)
        .where(
          and(
            inArray(memorialPages.id, pageIds),
            sql`not exists (select 1 from ${memorialPageMembers} where ${memorialPageMembers.memorialPageId} = ${memorialPages.id} and ${memorialPageMembers.userId} <> ${userId})`,
          ),
        );
      await tx
        .delete(memorialPageMembers)
        .where(
          and(
            eq(memorialPageMembers.userId, userId),
            inArray(memorialPageMembers.memorialPageId, pageIds),
          ),
        );
      await tx.execute(sql`
        update memorial_page_members set role = 'admin'
        where (memorial_page_id, user_id) in (
          select distinct on (memorial_page_id) memorial_page_id, user_id
          from memorial_page_members candidate
          where memorial_page_id in ${pageIds}
            and not exists (
              select 1 from memorial_page_members admin
              where admin.memorial_page_id = candidate.memorial_page_id and admin.role = 'admin')
          order by memorial_page_id, created_at, user_id)`);
    }
    if (!kept) {
      await tx
        .delete(connections)
        .where(or(eq(connections.userId, userId), eq(connections.otherUserId, userId)));
    }
    await tx
      .delete(connectionRequests)
      .where(
        or(eq(connectionRequests.fromUserId, userId), eq(connectionRequests.toUserId, userId)),
      );
    await tx.delete(accountTokens).where(eq(accountTokens.userId, userId));
    await tx.delete(externalIdentities).where(eq(externalIdentities.userId, userId));
    await revokeAllOfUser(tx, userId, deps.clock);
    // Archives of all the member's data go too: the job deletes their files.
    await withdrawExports(tx, userId, now);
    await tx
      .update(users)
      .set({
        status: 'deleted',
        deletedAt: now,
        updatedAt: now,
        email: '',
        passwordHash: null,
        lastNameKana: '',
        firstNameKana: '',
        nameReading: '',
        address: null,
        birthdate: null,
        sexCode: null,
        iconName: null,
        searchable: false,
      })
      .where(and(eq(users.id, userId), ne(users.status, 'deleted')));
  });
  await releaseUploads(deps, { kind: 'member_icon', id: userId });
}
