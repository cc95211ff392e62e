import { and, desc, eq, gte, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  condolences,
  connections,
  memorialPageMembers,
  memorialPageProfiles,
  memorialPages,
  users,
} from '../../db/schema';
import { tokyoToday } from '../../../contract/rules/account';
import type { ServedOf } from '../../../contract/endpoint';
import type { dashboardView, mourningView } from '../../../contract/social';
import { anniversariesBetween, addDays } from '../memorial/anniversaries';
import { listablePageIds, pageColumns } from '../memorial/access';
import { asListedTo, memberCardColumns, type MemberCard } from './members';
import { ownMemorialPage } from '../ownPage';
import type { SocialDeps } from './socialDeps';
import { listNotifications, unreadCount, type NotificationItem } from './notifications';

/** How far ahead the mourning tab looks for anniversaries. */
export const ANNIVERSARY_LOOKAHEAD_DAYS = 60;
/** How far back the dashboard looks for connections' news. */
export const NEWS_WINDOW_DAYS = 30;
const RECENT_NOTIFICATIONS = 5;
const NEWS_ITEMS = 10;
const RECENT_CONDOLENCES = 10;
/** Bounds the mourning tab; a member remembers far fewer pages than this. */
const MOURNING_PAGES = 100;

type WireMourning = ServedOf<typeof mourningView>;

/** A page on the mourning tab with its photo's object name (the route signs it to a URL). */
export type MourningPage = Omit<WireMourning['pages'][number], 'photoUrl'> & {
  photoName: string | null;
};

export type Mourning = Omit<WireMourning, 'pages'> & { pages: MourningPage[] };

/**
 * The mourning tab (偲ぶ): pages of people who have passed (a date of death) that the member
 * belongs to, their connections' own pages once a date of death is recorded, and the pet
 * pages the member belongs to — only those the member may see (the memorial area's rules) —
 * with the anniversaries of the coming days and the latest condolences on them.
 */
export async function mourning({ db, clock }: SocialDeps, userId: string): Promise<Mourning> {
  const now = clock.now();
  const connectedIds = db
    .select({ id: connections.otherUserId })
    .from(connections)
    .where(eq(connections.userId, userId));
  const candidates = await db
    .select({ ...pageColumns, role: memorialPageMembers.role })
    .from(memorialPages)
    .leftJoin(
      memorialPageMembers,
      and(
        eq(memorialPageMembers.memorialPageId, memorialPages.id),
        eq(memorialPageMembers.userId, userId),
      ),
    )
    .where(
      or(
        and(
          isNotNull(memorialPageMembers.userId),
          or(isNotNull(memorialPageProfiles.deathDate), eq(memorialPages.type, 'pet')),
        ),
        and(ownMemorialPage(connectedIds), isNotNull(memorialPageProfiles.deathDate)),
      ),
    )
    .orderBy(sql`${memorialPageProfiles.deathDate} DESC NULLS LAST`, desc(memorialPages.createdAt))
    .limit(MOURNING_PAGES);
  const listable = await listablePageIds(
    db,
    userId,
    candidates.map((page) => page.id),
  );
  const visible = candidates.filter((page) => listable.has(page.id));
  const pages: MourningPage[] = visible.map((page) => ({
    memorialPageId: page.id,
    type: page.type,
    lastName: page.lastName,
    firstName: page.firstName,
    photoName: page.photoName,
    birthDate: page.birthDate,
    deathDate: page.deathDate,
    animalKind: page.animalKind,
    role: page.role,
  }));

  const today = tokyoToday(now);
  const until = addDays(today, ANNIVERSARY_LOOKAHEAD_DAYS);
  const upcomingAnniversaries = pages
    .flatMap((page) =>
      page.deathDate
        ? anniversariesBetween(page.deathDate, today, until).map((anniversary) => ({
            memorialPageId: page.memorialPageId,
            lastName: page.lastName,
            firstName: page.firstName,
            ...anniversary,
          }))
        : [],
    )
    .sort((a, b) => a.date.localeCompare(b.date));

  return { pages, upcomingAnniversaries, recentCondolences: await recentCondolences(db, pages) };
}

/** Approved messages on the pages, and every message on those the member administers. */
async function recentCondolences(db: Db, pages: MourningPage[]) {
  if (pages.length === 0) return [];
  const administered = pages.filter((p) => p.role === 'admin').map((p) => p.memorialPageId);
  return db
    .select({
      id: condolences.id,
      memorialPageId: condolences.memorialPageId,
      authorUserId: condolences.authorUserId,
      authorLastName: users.lastName,
      authorFirstName: users.firstName,
      body: condolences.body,
      createdAt: condolences.createdAt,
    })
    .from(condolences)
    .innerJoin(users, eq(users.id, condolences.authorUserId))
    .where(
      and(
        inArray(
          condolences.memorialPageId,
          pages.map((page) => page.memorialPageId),
        ),
        or(
          eq(condolences.status, 'approved'),
          administered.length > 0 ? inArray(condolences.memorialPageId, administered) : sql`false`,
        ),
      ),
    )
    .orderBy(desc(condolences.createdAt), desc(condolences.id))
    .limit(RECENT_CONDOLENCES);
}

type WireDashboard = ServedOf<typeof dashboardView>;

/** A news item with the domain's member card (the route turns it into the wire's). */
export type NewsItem = Omit<WireDashboard['connectionsNews'][number], 'member' | 'at'> & {
  at: Date;
  member: MemberCard;
};

export type Dashboard = Omit<WireDashboard, 'connectionsNews' | 'recentNotifications'> & {
  recentNotifications: NotificationItem[];
  connectionsNews: NewsItem[];
};

/** The home tab's summary. Ending-note and time-capsule status come from their own calls. */
export async function dashboard({ db, clock }: SocialDeps, userId: string): Promise<Dashboard> {
  const now = clock.now();
  const since = new Date(now.getTime() - NEWS_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const [own] = await db
    .select({ id: memorialPages.id })
    .from(memorialPages)
    .where(ownMemorialPage(userId));
  const rows = await db
    .select({
      ...memberCardColumns,
      connectedAt: connections.createdAt,
      pageCreatedAt: memorialPages.createdAt,
      pageUpdatedAt: memorialPages.updatedAt,
    })
    .from(connections)
    .innerJoin(users, eq(users.id, connections.otherUserId))
    .leftJoin(memorialPages, ownMemorialPage())
    .where(
      and(
        eq(connections.userId, userId),
        ne(users.status, 'deleted'),
        or(gte(connections.createdAt, since), gte(memorialPages.updatedAt, since)),
      ),
    );
  const recent = await asListedTo({ db }, userId, rows);
  const connectionsNews = recent
    .flatMap(({ connectedAt, pageCreatedAt, pageUpdatedAt, ...member }): NewsItem[] => {
      // A page counts as updated when it was edited after it was made and after the two
      // connected (its news before that moment was not addressed to this member), and only
      // when the member may list it.
      const edited =
        member.memorialPageId !== null &&
        pageCreatedAt &&
        pageUpdatedAt &&
        pageUpdatedAt > pageCreatedAt &&
        pageUpdatedAt >= since;
      return [
        ...(connectedAt >= since ? [{ kind: 'connected' as const, at: connectedAt, member }] : []),
        ...(edited && pageUpdatedAt > connectedAt
          ? [{ kind: 'page_updated' as const, at: pageUpdatedAt, member }]
          : []),
      ];
    })
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .slice(0, NEWS_ITEMS);
  const { items } = await listNotifications({ db }, userId, {
    page: 1,
    perPage: RECENT_NOTIFICATIONS,
  });
  return {
    memorialPageId: own?.id ?? null,
    unreadCount: await unreadCount({ db }, userId),
    recentNotifications: items,
    connectionsNews,
  };
}
