import { sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/rows';
import { DomainError } from '../errors';
import { requireAdmin } from '../memorial/access';
import { listKeepsakes, requestExport } from './requests';

/**
 * Whether the page's keepsake may be made: a pet's page at any time; a page for a person once
 * they have died — a member's own page once it became a mourning page or their death was
 * released (a page they chose to leave as it is, or hidden), another person's once it has a
 * date of death. A living member's page is not handed to others as a keepsake.
 */
async function keepsakeAvailable(db: Db, pageId: string): Promise<boolean> {
  const [page] = await queryRows<{ available: boolean }>(
    db,
    sql`select case type
        when 'pet' then true
        when 'self' then mourning_since is not null or exists (
          select 1 from users u where u.id = owner_user_id and u.death_confirmed_at is not null)
        else death_date is not null end as available
      from memorial_pages where id = ${pageId}`,
  );
  return page?.available ?? false;
}

/** POST /v1/memorial_page/:id/keepsakes: an admin asks for the page's keepsake. */
export async function requestKeepsake(db: Db, clock: Clock, pageId: string, userId: string) {
  await requireAdmin(db, pageId, userId);
  if (!(await keepsakeAvailable(db, pageId))) {
    throw new DomainError(
      'conflict',
      'keepsake_not_yet',
      'a keepsake of a page for a person is made after their death',
    );
  }
  return requestExport(db, clock, userId, pageId);
}

/** GET /v1/memorial_page/:id/keepsakes: whether one may be made, and the page's record. */
export async function keepsakesOfPage(db: Db, clock: Clock, pageId: string, userId: string) {
  await requireAdmin(db, pageId, userId);
  return {
    available: await keepsakeAvailable(db, pageId),
    keepsakes: await listKeepsakes(db, clock, pageId),
  };
}
