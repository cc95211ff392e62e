import { and, eq, gte, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { connections, memorialPageMembers, memorialPageProfiles } from '../../db/schema';
import {
  addYears,
  anniversariesBetween,
  ANNIVERSARY_RULES,
  type Anniversary,
} from './anniversaries';

/** The longest span from death to a service (三十三回忌). */
const LAST_SERVICE_YEARS = Math.max(
  ...ANNIVERSARY_RULES.map((rule) => ('years' in rule ? rule.years : 0)),
);

export interface UpcomingAnniversary {
  memorialPageId: string;
  anniversary: Anniversary;
  /** The page's admins and, unless the page is for admins only, their connections. */
  notifyUserIds: string[];
}

/**
 * Every service falling within [from, to] (calendar dates in Japan) on any page with a date
 * of death, with the members to notify. A notification job calls this once per run with
 * the window it announces ahead; it runs three queries whatever the number of pages.
 */
export async function upcomingAnniversaries(
  db: Db,
  from: string,
  to: string,
): Promise<UpcomingAnniversary[]> {
  const pages = await db
    .select({
      id: memorialPageProfiles.id,
      deathDate: memorialPageProfiles.deathDate,
      privacy: memorialPageProfiles.privacy,
    })
    .from(memorialPageProfiles)
    .where(
      and(
        isNotNull(memorialPageProfiles.deathDate),
        gte(memorialPageProfiles.deathDate, addYears(from, -LAST_SERVICE_YEARS - 1)),
        lte(memorialPageProfiles.deathDate, to),
      ),
    );
  const due = pages.flatMap((page) =>
    anniversariesBetween(page.deathDate!, from, to).map((anniversary) => ({ page, anniversary })),
  );
  if (due.length === 0) return [];

  const pageIds = [...new Set(due.map(({ page }) => page.id))];
  const admins = await db
    .select({ pageId: memorialPageMembers.memorialPageId, userId: memorialPageMembers.userId })
    .from(memorialPageMembers)
    .where(
      and(
        inArray(memorialPageMembers.memorialPageId, pageIds),
        eq(memorialPageMembers.role, 'admin'),
      ),
    );
  const adminIds = [...new Set(admins.map((admin) => admin.userId))];
  const links =
    adminIds.length === 0
      ? []
      : await db
          .select({ adminId: connections.userId, otherId: connections.otherUserId })
          .from(connections)
          .where(inArray(connections.userId, adminIds));

  const connectionsOf = new Map<string, string[]>();
  for (const { adminId, otherId } of links) {
    connectionsOf.set(adminId, [...(connectionsOf.get(adminId) ?? []), otherId]);
  }
  return due.map(({ page, anniversary }) => {
    const pageAdmins = admins.filter((admin) => admin.pageId === page.id).map((a) => a.userId);
    const circle =
      page.privacy === 'admins' ? [] : pageAdmins.flatMap((id) => connectionsOf.get(id) ?? []);
    return {
      memorialPageId: page.id,
      anniversary,
      notifyUserIds: [...new Set([...pageAdmins, ...circle])].sort(),
    };
  });
}
