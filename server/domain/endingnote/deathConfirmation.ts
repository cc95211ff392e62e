import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { users } from '../../db/schema';

/**
 * True once the member's death is confirmed: the death-detection capability sets
 * `users.death_confirmed_at` (added by migration 0030) when a death is confirmed and its
 * grace period has passed. Ending-note sections visible "after my death is confirmed" open to
 * designated readers from then on. The column is read as plain SQL because it belongs to
 * death detection, which adds it to the users table definition when it is built.
 */
export async function isDeathConfirmed(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ confirmed: sql<boolean>`death_confirmed_at IS NOT NULL` })
    .from(users)
    .where(eq(users.id, userId));
  return row?.confirmed === true;
}
