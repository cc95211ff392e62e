import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database';
import { connectionRequests, connections } from '../db/schema';

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

/** The condition for pending connection requests, either way, between a member and any of `others`. */
export function pendingRequestsBetween(userId: string, others: string[]): SQL {
  return and(
    eq(connectionRequests.status, 'pending'),
    or(
      and(eq(connectionRequests.fromUserId, userId), inArray(connectionRequests.toUserId, others)),
      and(eq(connectionRequests.toUserId, userId), inArray(connectionRequests.fromUserId, others)),
    ),
  )!;
}
