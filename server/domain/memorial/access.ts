import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { preparedPerDatabase } from '../../db/prepared';
import {
  connections,
  memorialPageMembers,
  memorialPageMourning,
  memorialPageProfiles,
  memorialPages,
  type Privacy,
} from '../../db/schema';
import { forbidden, notFound, unauthorized } from '../../http/errors';

export type MemberRole = 'admin' | 'viewer';
/** The spec's modes: admins edit, everyone else who may see the page views. */
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
  /** The page's album and history version (migrations/0021), for the kept list answers. */
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

/** The page with the caller's membership; an anonymous caller (null) matches no member row. */
const pageWithRole = preparedPerDatabase((db) =>
  db
    .select({
      ...pageColumns,
      role: memorialPageMembers.role,
      listsVersion: memorialPageProfiles.listsVersion,
    })
    .from(memorialPages)
    .leftJoin(
      memorialPageMembers,
      and(
        eq(memorialPageMembers.memorialPageId, memorialPages.id),
        eq(memorialPageMembers.userId, sql.placeholder('userId')),
      ),
    )
    .where(eq(memorialPages.id, sql.placeholder('pageId')))
    .limit(1)
    .prepare('memorial_page_access'),
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
  const [found] = await pageWithRole(db).execute({ pageId, userId: userId ?? null });
  if (!found) return undefined;
  const { role, listsVersion, ...page } = found;
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
  throw userId ? notFound('memorial page') : unauthorized();
}

/** A signed-in caller who can see the page (condolences, flowers). */
export async function requireParticipant(
  db: Db,
  pageId: string,
  userId: string | undefined,
): Promise<PageAccess & { userId: string }> {
  const access = await requireVisiblePage(db, pageId, userId);
  if (!userId) throw unauthorized();
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
