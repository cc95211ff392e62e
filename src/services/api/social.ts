import type { RelationshipValue } from '../../contract/rules/social';
import { http } from '../http';

/** The social calls (docs/social.md, "API calls"). */

export interface MemberCard {
  userId: string;
  lastName: string;
  firstName: string;
  lastNameKana: string;
  firstNameKana: string;
  iconUrl: string | null;
  memorialPageId: string | null;
  /** The avatar's badge where the list carries it (search, connections, requests, dashboard news); absent: no badge. */
  certificated?: boolean;
}

export interface Connection extends MemberCard {
  relationship: RelationshipValue;
  theirRelationship: RelationshipValue | null;
  connectedAt: string;
}

export interface ConnectionRequest {
  requestId: string;
  relationship: RelationshipValue;
  createdAt: string;
  member: MemberCard;
}

export type ConnectionState = 'connected' | 'request_sent' | 'request_received' | 'none';

export interface SearchResult extends MemberCard {
  connection: ConnectionState;
  requestId: string | null;
}

export interface NotificationItem {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  createdAt: string;
  readAt: string | null;
}

export const socialKeys = {
  connections: ['connection', 'connections'] as const,
  requests: ['connection', 'requests'] as const,
  search: (q: string) => ['user-search', q] as const,
  notifications: ['notification', 'list'] as const,
  unreadCount: ['notification', 'unread-count'] as const,
};

export async function fetchConnections(): Promise<Connection[]> {
  const { data } = await http.get<{ items: Connection[] }>('/v1/connection/connections');
  return data.items;
}

export async function fetchRequests(): Promise<{
  received: ConnectionRequest[];
  sent: ConnectionRequest[];
}> {
  const { data } = await http.get<{ received: ConnectionRequest[]; sent: ConnectionRequest[] }>(
    '/v1/connection/requests',
  );
  return data;
}

export async function sendConnectionRequest(
  toUserId: string,
  relationship: RelationshipValue,
): Promise<{ status: 'requested' | 'connected'; requestId: string }> {
  const { data } = await http.post<{ status: 'requested' | 'connected'; requestId: string }>(
    '/v1/connection/requests',
    { toUserId, relationship },
  );
  return data;
}

export async function acceptConnectionRequest(
  requestId: string,
  relationship: RelationshipValue,
): Promise<void> {
  await http.post(`/v1/connection/requests/${encodeURIComponent(requestId)}/accept`, {
    relationship,
  });
}

export async function declineConnectionRequest(requestId: string): Promise<void> {
  await http.post(`/v1/connection/requests/${encodeURIComponent(requestId)}/decline`);
}

export async function cancelConnectionRequest(requestId: string): Promise<void> {
  await http.post(`/v1/connection/requests/${encodeURIComponent(requestId)}/cancel`);
}

export async function changeRelationship(
  userId: string,
  relationship: RelationshipValue,
): Promise<void> {
  await http.patch(`/v1/connection/connections/${encodeURIComponent(userId)}`, { relationship });
}

export async function removeConnection(userId: string): Promise<void> {
  await http.delete(`/v1/connection/connections/${encodeURIComponent(userId)}`);
}

export async function searchUsers(
  q: string,
  cursor: string | null,
): Promise<{ items: SearchResult[]; nextCursor: string | null }> {
  const { data } = await http.get<{ items: SearchResult[]; nextCursor: string | null }>(
    '/v1/user_search',
    { params: { q, ...(cursor ? { cursor } : {}) } },
  );
  return data;
}

export async function fetchNotifications(
  page: number,
): Promise<{ items: NotificationItem[]; hasMore: boolean }> {
  const { data } = await http.get<{ items: NotificationItem[]; hasMore: boolean }>(
    '/v1/notification/user_notifications',
    { params: { page } },
  );
  return data;
}

export async function markNotificationRead(id: string): Promise<void> {
  await http.post(`/v1/notification/user_notifications/${encodeURIComponent(id)}/read`);
}

export async function markAllNotificationsRead(): Promise<void> {
  await http.post('/v1/notification/user_notifications/read_all');
}
