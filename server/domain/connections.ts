import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database';
import { connectionRequests, connections, type Relationship } from '../db/schema';

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

/** One member of a new connection, with what they call the other (the table's default: unsaid). */
export interface ConnectionSide {
  userId: string;
  relationship?: Relationship;
}

/**
 * Connects two members: both directions are written, each with its own relationship, and a
 * direction that exists already is kept. Every way to connect (an accepted request, an
 * accepted invitation) writes through here, so one row never stands without the other.
 */
export async function connectBothWays(
  db: Db,
  one: ConnectionSide,
  other: ConnectionSide,
  at: Date,
): Promise<void> {
  await db
    .insert(connections)
    .values([
      {
        userId: one.userId,
        otherUserId: other.userId,
        relationship: one.relationship,
        createdAt: at,
      },
      {
        userId: other.userId,
        otherUserId: one.userId,
        relationship: other.relationship,
        createdAt: at,
      },
    ])
    .onConflictDoNothing();
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
