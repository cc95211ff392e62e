import { and, eq, exists, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { createKeyBatcher } from '../../db/keyBatcher';
import { preparedPerDatabase } from '../../db/prepared';
import {
  connections,
  memorialPageMembers,
  memorialPageMourning,
  memorialPageProfiles,
  memorialPages,
  type Privacy,
} from '../../db/schema';
import { forbidden, notFound, unauthenticated } from '../errors';

export type MemberRole = 'admin' | 'viewer';
/** Two modes: admins edit, everyone else who may see the page views. */
export type PageMode = 'admin_edit' | 'admin_view';

export interface PageRow {
  id: string;
  ownerUserId: string | null;
  type: 'self' | 'other' | 'pet';
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  photoName: string | null;
  birthDate: string | null;
  deathDate: string | null;
  animalKind: string | null;
  privacy: Privacy;
  searchable: boolean;
  /** Set when the member's confirmed death was released: the page shows its mourning view. */
  mourningSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PageAccess {
  page: PageRow;
  /** The caller's membership of the page, if any. */
  role: MemberRole | null;
  mode: PageMode;
  /** The page's album and history version (migrations/0021), which their answers' ETag names. */
  listsVersion: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

/**
 * The page's columns. memorialPageProfiles is a second view of the same memorial_pages table,
 * so its columns are selected from the one FROM without a join.
 */
export const pageColumns = {
  id: memorialPages.id,
  ownerUserId: memorialPages.ownerUserId,
  type: memorialPages.type,
  lastName: memorialPages.lastName,
  firstName: memorialPages.firstName,
  lastNameKana: memorialPages.lastNameKana,
  firstNameKana: memorialPages.firstNameKana,
  photoName: memorialPageProfiles.photoName,
  birthDate: memorialPageProfiles.birthDate,
  deathDate: memorialPageProfiles.deathDate,
  animalKind: memorialPageProfiles.animalKind,
  privacy: memorialPageProfiles.privacy,
  searchable: memorialPageProfiles.searchable,
  mourningSince: memorialPageMourning.mourningSince,
  createdAt: memorialPages.createdAt,
  updatedAt: memorialPages.updatedAt,
};

/** True when the member is connected to at least one admin of the page. */
async function isConnectedToAnAdmin(db: Db, pageId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ one: connections.userId })
    .from(connections)
    .innerJoin(
      memorialPageMembers,
      and(
        eq(memorialPageMembers.userId, connections.otherUserId),
        eq(memorialPageMembers.memorialPageId, pageId),
        eq(memorialPageMembers.role, 'admin'),
      ),
    )
    .where(eq(connections.userId, userId))
    .limit(1);
  return rows.length > 0;
}

/**
 * The pages of a batch, each with the roles the batch's signed-in callers hold on it (a
 * caller who is no member has no entry). One row per page, whatever the number of callers.
 */
const pagesWithRoles = preparedPerDatabase((db) =>
  db
    .select({
      ...pageColumns,
      listsVersion: memorialPageProfiles.listsVersion,
      roles: sql<Record<string, MemberRole> | null>`(
        select json_object_agg(${memorialPageMembers.userId}, ${memorialPageMembers.role})
        from ${memorialPageMembers}
        where ${memorialPageMembers.memorialPageId} = ${memorialPages.id}
          and ${memorialPageMembers.userId} = any(${sql.placeholder('userIds')}::uuid[]))`,
    })
    .from(memorialPages)
    .where(sql`${memorialPages.id} = any(${sql.placeholder('pageIds')}::uuid[])`)
    .prepare('memorial_page_access'),
);

interface PageWithRole {
  page: PageRow;
  role: MemberRole | null;
  listsVersion: number;
}

/**
 * A batch key: the page id and the caller's id ('' when signed out), both already checked,
 * in the lower case the database answers uuids in.
 */
const accessKey = (pageId: string, userId: string | undefined) =>
  `${pageId} ${userId ?? ''}`.toLowerCase();

/**
 * The access reads of one turn of the event loop, answered by one query per database
 * (keyBatcher.ts). Every memorial call starts with this read, and under load dozens of them
 * arrive together, most for the same page: one query instead of one each takes most of the
 * database round trips (the client's work, the socket writes, the backend's) out of a call.
 * A batch is sent only after every request in it has arrived and nothing is kept between
 * batches, so each call still reads the page, its privacy, the caller's role and the lists
 * version afresh from the shared database.
 */
const pageWithRoleOf = preparedPerDatabase((db) =>
  createKeyBatcher<string, PageWithRole>(async (keys) => {
    const pageIds = new Set<string>();
    const userIds = new Set<string>();
    for (const key of keys) {
      const [pageId, userId] = key.split(' ') as [string, string];
      pageIds.add(pageId);
      if (userId) userIds.add(userId);
    }
    const rows = await pagesWithRoles(db).execute({
      pageIds: [...pageIds],
      userIds: [...userIds],
    });
    const pages = new Map(rows.map((row) => [row.id, row]));
    const found = new Map<string, PageWithRole>();
    for (const key of keys) {
      const [pageId, userId] = key.split(' ') as [string, string];
      const row = pages.get(pageId);
      if (!row) continue;
      const { roles, listsVersion, ...page } = row;
      found.set(key, { page, listsVersion, role: (userId && roles?.[userId]) || null });
    }
    return found;
  }),
);

/**
 * What the caller may do with the page, or undefined when the caller may not know it
 * exists. The rules (docs/memorial.md): admins always; viewers unless the page is for
 * admins only; connections of an admin on `connections`, `link` and `public` pages; any
 * signed-in member on `link` pages; anyone on `public` pages.
 */
export async function pageAccess(
  db: Db,
  pageId: string,
  userId: string | undefined,
): Promise<PageAccess | undefined> {
  if (!isUuid(pageId)) return undefined;
  // A caller id that is no uuid can be no member: it is read as signed in but without a role.
  const memberId = userId && isUuid(userId) ? userId : undefined;
  const found = await pageWithRoleOf(db)(accessKey(pageId, memberId));
  if (!found) return undefined;
  const { page, role, listsVersion } = found;
  const mode = role === 'admin' ? 'admin_edit' : 'admin_view';
  const access: PageAccess = { page, role, mode, listsVersion };
  if (role === 'admin') return access;
  if (page.privacy === 'admins') return undefined;
  if (role === 'viewer' || page.privacy === 'public') return access;
  if (!userId) return undefined;
  if (page.privacy === 'link') return access;
  return (await isConnectedToAnAdmin(db, pageId, userId)) ? access : undefined;
}

/**
 * The page for a caller who must be able to see it. A signed-out caller gets 401 for every
 * page that is not public — existing or not — so signing in is offered without revealing
 * anything; a signed-in caller gets 404.
 */
export async function requireVisiblePage(
  db: Db,
  pageId: string,
  userId: string | undefined,
): Promise<PageAccess> {
  const access = await pageAccess(db, pageId, userId);
  if (access) return access;
  throw userId ? notFound('memorial page') : unauthenticated();
}

/** A signed-in caller who can see the page (condolences, flowers). */
export async function requireParticipant(
  db: Db,
  pageId: string,
  userId: string | undefined,
): Promise<PageAccess & { userId: string }> {
  const access = await requireVisiblePage(db, pageId, userId);
  if (!userId) throw unauthenticated();
  return { ...access, userId };
}

/** An admin of the page: 403 for those who may see it, 404 (401 signed out) for the rest. */
export async function requireAdmin(
  db: Db,
  pageId: string,
  userId: string | undefined,
): Promise<PageAccess & { userId: string }> {
  const access = await requireParticipant(db, pageId, userId);
  if (access.role !== 'admin') throw forbidden('only the page admins may do this');
  return access;
}

/**
 * Of the given pages, those the member may be shown in a list (a search result, a connection
 * card, the home tabs): what `pageAccess` lets them see, except by holding a `link` page's
 * address — a `link` page is never listed to anyone who only could open its link. So: pages
 * they are admin of; pages they are viewer of unless for admins only; public pages; and
 * `connections` or `link` pages of which they are connected to an admin.
 */
export async function listablePageIds(
  db: Db,
  userId: string,
  pageIds: readonly (string | null)[],
): Promise<Set<string>> {
  const ids = [...new Set(pageIds.filter((id): id is string => id !== null && isUuid(id)))];
  if (ids.length === 0) return new Set();
  const member = db
    .select({ one: sql`1` })
    .from(memorialPageMembers)
    .where(
      and(
        eq(memorialPageMembers.memorialPageId, memorialPageProfiles.id),
        eq(memorialPageMembers.userId, userId),
        sql`(${memorialPageMembers.role} = 'admin' or ${memorialPageProfiles.privacy} <> 'admins')`,
      ),
    );
  const connectedToAnAdmin = db
    .select({ one: sql`1` })
    .from(connections)
    .innerJoin(
      memorialPageMembers,
      and(
        eq(memorialPageMembers.userId, connections.otherUserId),
        eq(memorialPageMembers.memorialPageId, memorialPageProfiles.id),
        eq(memorialPageMembers.role, 'admin'),
      ),
    )
    .where(eq(connections.userId, userId));
  const rows = await db
    .select({ id: memorialPageProfiles.id })
    .from(memorialPageProfiles)
    .where(
      and(
        inArray(memorialPageProfiles.id, ids),
        or(
          exists(member),
          eq(memorialPageProfiles.privacy, 'public'),
          and(
            inArray(memorialPageProfiles.privacy, ['connections', 'link']),
            exists(connectedToAnAdmin),
          ),
        ),
      ),
    );
  return new Set(rows.map((row) => row.id));
}
