import { aliasedTable, and, asc, desc, eq, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { connectionRequests, connections, memorialPages, users } from '../../db/schema';
import type { Relationship } from '../../db/schema';
import { conflict, invalid, notFound } from '../errors';
import { areConnected, connectBothWays, pendingRequestsBetween } from '../connections';
import {
  asListedTo,
  displayName,
  isActiveMember,
  memberCardColumns,
  memberCards,
  type MemberCard,
} from './members';
import { notify, withdrawRequestNotification } from './notifications';
import { ownMemorialPage } from '../ownPage';
import type { SocialDeps } from './socialDeps';

export interface ConnectionItem extends MemberCard {
  /** What this member chose to call the other (家族, 友人, …). */
  relationship: Relationship;
  /** What the other member chose; null only while the invitation flow writes one side. */
  theirRelationship: Relationship | null;
  connectedAt: Date;
}

export interface RequestItem {
  requestId: string;
  /** The relationship the sender chose. */
  relationship: Relationship;
  createdAt: Date;
  /** The other member: the sender for received requests, the recipient for sent ones. */
  member: MemberCard;
}

export type SendOutcome =
  | { status: 'requested'; requestId: string }
  /** The other member had already asked: the two requests crossed and this one accepted it. */
  | { status: 'connected'; requestId: string };

const theirSide = aliasedTable(connections, 'their_side');

/** Every member connected with `userId`, by reading of their name. */
export async function listConnections(
  { db }: Pick<SocialDeps, 'db'>,
  userId: string,
): Promise<ConnectionItem[]> {
  const items = await db
    .select({
      ...memberCardColumns,
      relationship: connections.relationship,
      theirRelationship: theirSide.relationship,
      connectedAt: connections.createdAt,
    })
    .from(connections)
    .innerJoin(users, eq(users.id, connections.otherUserId))
    .leftJoin(memorialPages, ownMemorialPage())
    .leftJoin(
      theirSide,
      and(eq(theirSide.userId, connections.otherUserId), eq(theirSide.otherUserId, userId)),
    )
    .where(and(eq(connections.userId, userId), ne(users.status, 'deleted')))
    .orderBy(asc(users.lastNameKana), asc(users.firstNameKana), asc(users.id));
  return asListedTo({ db }, userId, items);
}

/** Pending requests the member received and sent, newest first. */
export async function listRequests(
  { db }: Pick<SocialDeps, 'db'>,
  userId: string,
): Promise<{ received: RequestItem[]; sent: RequestItem[] }> {
  const pending = await db
    .select()
    .from(connectionRequests)
    .where(
      and(
        eq(connectionRequests.status, 'pending'),
        or(eq(connectionRequests.toUserId, userId), eq(connectionRequests.fromUserId, userId)),
      ),
    )
    .orderBy(desc(connectionRequests.createdAt), desc(connectionRequests.id));
  const otherOf = (request: (typeof pending)[number]) =>
    request.toUserId === userId ? request.fromUserId : request.toUserId;
  const cards = await memberCards(db, pending.map(otherOf));
  const listed = new Map(
    (await asListedTo({ db }, userId, [...cards.values()])).map((card) => [card.userId, card]),
  );
  const items = pending.flatMap((request) => {
    const member = listed.get(otherOf(request));
    if (!member) return [];
    const item: RequestItem = {
      requestId: request.id,
      relationship: request.relationship,
      createdAt: request.createdAt,
      member,
    };
    return [{ received: request.toUserId === userId, item }];
  });
  return {
    received: items.filter((entry) => entry.received).map((entry) => entry.item),
    sent: items.filter((entry) => !entry.received).map((entry) => entry.item),
  };
}

/**
 * Asks `toUserId` to connect. When they had already asked this member (two requests
 * crossing), their request is accepted instead: both want the connection, so a second
 * request to answer would only be a chore. See docs/social.md.
 */
export async function sendRequest(
  { db, clock }: SocialDeps,
  fromUserId: string,
  toUserId: string,
  relationship: Relationship,
): Promise<SendOutcome> {
  const at = clock.now();
  if (fromUserId === toUserId) {
    throw invalid([{ field: 'to_user_id', code: 'connection_to_self' }]);
  }
  if (!(await isActiveMember({ db }, toUserId))) throw notFound('member');
  if (await areConnected(db, fromUserId, toUserId)) {
    throw conflict('already_connected', 'the members are already connected');
  }
  const open = await openRequestBetween(db, fromUserId, toUserId);
  if (open?.fromUserId === fromUserId) {
    throw conflict('request_pending', 'a request to this member is already waiting');
  }
  if (open) {
    await accept(db, fromUserId, open.id, relationship, at);
    return { status: 'connected', requestId: open.id };
  }
  try {
    return await db.transaction(async (tx) => {
      const [request] = await tx
        .insert(connectionRequests)
        .values({ fromUserId, toUserId, relationship, createdAt: at })
        .returning({ id: connectionRequests.id });
      const sender = (await memberCards(tx, [fromUserId])).get(fromUserId)!;
      await notify(
        tx,
        toUserId,
        'connection_requested',
        { requestId: request!.id, fromUserId, fromName: displayName(sender) },
        at,
      );
      return { status: 'requested' as const, requestId: request!.id };
    });
  } catch (error) {
    // The unique partial index: a request between the two was opened at the same moment.
    if (isUniqueViolation(error)) {
      throw conflict('request_pending', 'a request between these members is already waiting');
    }
    throw error;
  }
}

/**
 * The recipient accepts, choosing their own relationship: both directions are written and
 * the sender is told.
 */
export async function acceptRequest(
  { db, clock }: SocialDeps,
  userId: string,
  requestId: string,
  relationship: Relationship,
): Promise<void> {
  await accept(db, userId, requestId, relationship, clock.now());
}

async function accept(
  db: Db,
  userId: string,
  requestId: string,
  relationship: Relationship,
  at: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const request = await answerRequest(tx, requestId, 'accepted', { toUserId: userId }, at);
    await connectBothWays(
      tx,
      { userId, relationship },
      { userId: request.fromUserId, relationship: request.relationship },
      at,
    );
    const accepter = (await memberCards(tx, [userId])).get(userId)!;
    await notify(
      tx,
      request.fromUserId,
      'connection_accepted',
      { userId, name: displayName(accepter) },
      at,
    );
  });
}

/** The recipient declines. The sender is not told (the request simply leaves their list). */
export async function declineRequest(
  { db, clock }: SocialDeps,
  userId: string,
  requestId: string,
): Promise<void> {
  await answerRequest(db, requestId, 'declined', { toUserId: userId }, clock.now());
}

/** The sender withdraws their request, and its unread notification with it. */
export async function cancelRequest(
  { db, clock }: SocialDeps,
  userId: string,
  requestId: string,
): Promise<void> {
  const at = clock.now();
  await db.transaction(async (tx) => {
    const request = await answerRequest(tx, requestId, 'cancelled', { fromUserId: userId }, at);
    await withdrawRequestNotification(tx, request.toUserId, requestId);
  });
}

/** Ends a connection in both directions. Quietly: the other member is not notified. */
export async function removeConnection(
  { db }: Pick<SocialDeps, 'db'>,
  userId: string,
  otherUserId: string,
): Promise<void> {
  const removed = await db
    .delete(connections)
    .where(
      or(
        and(eq(connections.userId, userId), eq(connections.otherUserId, otherUserId)),
        and(eq(connections.userId, otherUserId), eq(connections.otherUserId, userId)),
      ),
    )
    .returning({ userId: connections.userId });
  if (!removed.some((row) => row.userId === userId)) throw notFound('connection');
}

/** Changes the relationship this member chose for a connection; the other side keeps theirs. */
export async function setRelationship(
  { db }: Pick<SocialDeps, 'db'>,
  userId: string,
  otherUserId: string,
  relationship: Relationship,
): Promise<void> {
  const updated = await db
    .update(connections)
    .set({ relationship })
    .where(and(eq(connections.userId, userId), eq(connections.otherUserId, otherUserId)))
    .returning({ userId: connections.userId });
  if (updated.length === 0) throw notFound('connection');
}

async function openRequestBetween(db: Db, a: string, b: string) {
  const [open] = await db
    .select()
    .from(connectionRequests)
    .where(pendingRequestsBetween(a, [b]))
    .limit(1);
  return open;
}

/**
 * Moves a pending request the member is party to (as `party` says) to its answer. A request
 * that is not theirs answers 404; one of theirs that was already answered answers 409.
 */
async function answerRequest(
  db: Db,
  requestId: string,
  status: 'accepted' | 'declined' | 'cancelled',
  party: { toUserId: string } | { fromUserId: string },
  at: Date,
) {
  const isParty =
    'toUserId' in party
      ? eq(connectionRequests.toUserId, party.toUserId)
      : eq(connectionRequests.fromUserId, party.fromUserId);
  const [answered] = await db
    .update(connectionRequests)
    .set({ status, respondedAt: at })
    .where(
      and(eq(connectionRequests.id, requestId), isParty, eq(connectionRequests.status, 'pending')),
    )
    .returning();
  if (answered) return answered;
  const [existing] = await db
    .select({ id: connectionRequests.id })
    .from(connectionRequests)
    .where(and(eq(connectionRequests.id, requestId), isParty));
  if (existing) throw conflict('request_not_pending', 'the request was already answered');
  throw notFound('connection request');
}

function isUniqueViolation(error: unknown): boolean {
  // drizzle wraps the driver's error; the SQLSTATE sits on it or on one of its causes.
  let current: unknown = error;
  while (typeof current === 'object' && current !== null) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
