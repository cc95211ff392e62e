import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { connections } from '../db/schema';

/** True when the two members are connected (either row direction implies the other). */
export async function areConnected(db: Db, userId: string, otherUserId: string): Promise<boolean> {
  if (userId === otherUserId) return false;
  const rows = await db
    .select({ userId: connections.userId })
    .from(connections)
    .where(and(eq(connections.userId, userId), eq(connections.otherUserId, otherUserId)))
    .limit(1);
  return rows.length > 0;
}
