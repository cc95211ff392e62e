import type { z } from 'zod';
import type { RelationshipValue } from '../../../contract/rules/social';
import {
  socialEndpoints as social,
  type connection,
  type connectionRequest,
  type memberCard,
  type notificationItem,
  type searchResult,
} from '../../../contract/social';
import { callEndpoint } from '../http/callEndpoint';

/** The social calls (docs/social.md, "API calls"); the wire's shapes are the contract's. */

/**
 * A member as social lists show them. Lists of other areas that carry no certificated flag
 * (a page's admins) leave it out, and the avatar then shows no badge.
 */
export type MemberCard = Omit<z.infer<typeof memberCard>, 'certificated'> & {
  certificated?: boolean;
};
export type Connection = z.infer<typeof connection>;
export type ConnectionRequest = z.infer<typeof connectionRequest>;
export type SearchResult = z.infer<typeof searchResult>;
export type ConnectionState = SearchResult['connection'];
export type NotificationItem = z.infer<typeof notificationItem>;

export const socialKeys = {
  connections: ['connection', 'connections'] as const,
  requests: ['connection', 'requests'] as const,
  search: (q: string) => ['user-search', q] as const,
  notifications: ['notification', 'list'] as const,
  unreadCount: ['notification', 'unread-count'] as const,
};

export async function fetchConnections(): Promise<Connection[]> {
  const data = await callEndpoint(social.listConnections, {});
  return data.items;
}

export function fetchRequests(): Promise<{
  received: ConnectionRequest[];
  sent: ConnectionRequest[];
}> {
  return callEndpoint(social.listRequests, {});
}

export function sendConnectionRequest(
  toUserId: string,
  relationship: RelationshipValue,
): Promise<{ status: 'requested' | 'connected'; requestId: string }> {
  return callEndpoint(social.sendRequest, { body: { toUserId, relationship } });
}

export async function acceptConnectionRequest(
  requestId: string,
  relationship: RelationshipValue,
): Promise<void> {
  await callEndpoint(social.acceptRequest, { params: { requestId }, body: { relationship } });
}

export async function declineConnectionRequest(requestId: string): Promise<void> {
  await callEndpoint(social.declineRequest, { params: { requestId } });
}

export async function cancelConnectionRequest(requestId: string): Promise<void> {
  await callEndpoint(social.cancelRequest, { params: { requestId } });
}

export async function changeRelationship(
  userId: string,
  relationship: RelationshipValue,
): Promise<void> {
  await callEndpoint(social.setRelationship, { params: { userId }, body: { relationship } });
}

export async function removeConnection(userId: string): Promise<void> {
  await callEndpoint(social.removeConnection, { params: { userId } });
}

export function searchUsers(
  q: string,
  cursor: string | null,
): Promise<{ items: SearchResult[]; nextCursor: string | null }> {
  return callEndpoint(social.searchMembers, { query: { q, ...(cursor ? { cursor } : {}) } });
}

export function fetchNotifications(
  page: number,
): Promise<{ items: NotificationItem[]; hasMore: boolean }> {
  return callEndpoint(social.listNotifications, { query: { page } });
}

export async function markNotificationRead(id: string): Promise<void> {
  await callEndpoint(social.markRead, { params: { notificationId: id } });
}

export async function markAllNotificationsRead(): Promise<void> {
  await callEndpoint(social.markAllRead, {});
}
