import { z } from 'zod';
import { timestamp, userId } from './common';
import { endpoint, errorBody, noBody, named } from './endpoint';
import { SEX_CODES } from './rules/account';
import {
  pagingSchema,
  profileUpdateSchema,
  relationshipBodySchema,
  RELATIONSHIP_VALUES,
  sendRequestSchema,
  userSearchSchema,
} from './rules/social';
import sample from './examples.json';

/**
 * The social area's endpoints (docs/social.md): connections and their requests, user search,
 * notifications, and the member's home (dashboard, mourning tab, my page's profile).
 */

const CONNECTIONS = 'Connections';
const SEARCH = 'User search';
const NOTIFICATIONS = 'Notifications';
const HOME = 'Home';

const memorialPageId = z.string().meta({ format: 'uuid' });
/** A calendar date, YYYY-MM-DD. */
const calendarDate = z.string().meta({ format: 'date', examples: ['1948-04-01'] });

/** Another member as social lists show them, with the avatar's certificated badge. */
export const memberCard = z
  .object({
    userId,
    lastName: z.string(),
    firstName: z.string(),
    lastNameKana: z.string(),
    firstNameKana: z.string(),
    /** A signed GET URL that expires; null without an icon. */
    iconUrl: z.string().nullable(),
    /** Their own memorial page, when the caller may list it. */
    memorialPageId: memorialPageId.nullable(),
    /** An active identity certificate (docs/death-detection.md). */
    certificated: z.boolean(),
  })
  .meta({
    id: 'MemberCard',
    examples: [
      {
        userId: '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14',
        lastName: sample.lastName,
        firstName: sample.firstName,
        lastNameKana: sample.lastNameKana,
        firstNameKana: sample.username,
        iconUrl: null,
        memorialPageId: null,
        certificated: true,
      },
    ],
  });

const relationship = z.enum(RELATIONSHIP_VALUES);

export const connection = memberCard
  .extend({
    /** What the caller chose to call the other member. */
    relationship,
    /** What the other member chose; null only while an invitation writes one side. */
    theirRelationship: relationship.nullable(),
    connectedAt: timestamp,
  })
  .meta({ id: 'Connection' });

export const connectionRequest = z
  .object({
    requestId: z.string().meta({ format: 'uuid' }),
    /** The relationship the sender chose. */
    relationship,
    createdAt: timestamp,
    /** The other member: the sender of a received request, the recipient of a sent one. */
    member: memberCard,
  })
  .meta({ id: 'ConnectionRequest' });

const requestsAnswer = z.object({
  received: z.array(connectionRequest),
  sent: z.array(connectionRequest),
});

const sendOutcome = z
  .object({
    /** `connected` when the other member had already asked: their request was accepted. */
    status: z.enum(['requested', 'connected']),
    requestId: z.string().meta({ format: 'uuid' }),
  })
  .meta({
    examples: [{ status: 'requested', requestId: '5c1d7a90-2b3e-4f61-8d0a-7e9b4c2f1a35' }],
  });

export const searchResult = memberCard
  .extend({
    /** Where the caller stands with the member found. */
    connection: z.enum(['connected', 'request_sent', 'request_received', 'none']),
    /** The pending request between the two, so that it can be answered from the results. */
    requestId: z.string().nullable(),
  })
  .meta({ id: 'SearchResult' });

export const notificationItem = z
  .object({
    id: z.string().meta({ format: 'uuid' }),
    /** One of the kinds of contract/rules/social.ts (NOTIFICATION_KINDS). */
    kind: z.string(),
    /** What the kind carries (server/domain/social/notifications.ts, NotificationPayloads). */
    payload: z.record(z.string(), z.unknown()),
    createdAt: timestamp,
    readAt: timestamp.nullable(),
  })
  .meta({
    id: 'Notification',
    examples: [
      {
        id: '9e2a4b7c-1d3f-4a5e-8b6c-0f1e2d3c4b5a',
        kind: 'connection_accepted',
        payload: { userId: '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14', name: sample.fullName },
        createdAt: '2026-11-25T09:30:00.000Z',
        readAt: null,
      },
    ],
  });

const newsItem = z.object({
  kind: z.enum(['connected', 'page_updated']),
  at: timestamp,
  member: memberCard,
});

export const dashboardView = z
  .object({
    /** The member's own memorial page. */
    memorialPageId: memorialPageId.nullable(),
    unreadCount: z.int().min(0),
    recentNotifications: z.array(notificationItem),
    /** New connections and connections' own pages changed lately, newest first. */
    connectionsNews: z.array(newsItem),
  })
  .meta({ id: 'Dashboard' });

export const mourningPage = z
  .object({
    memorialPageId,
    type: z.enum(['self', 'other', 'pet']),
    lastName: z.string(),
    firstName: z.string(),
    photoUrl: z.string().nullable(),
    birthDate: calendarDate.nullable(),
    deathDate: calendarDate.nullable(),
    animalKind: z.string().nullable(),
    /** The member's role on the page; null when they see it as a connection of its admins. */
    role: z.enum(['admin', 'viewer']).nullable(),
  })
  .meta({ id: 'MourningPage' });

export const mourningView = z
  .object({
    pages: z.array(mourningPage),
    upcomingAnniversaries: z.array(
      z.object({
        memorialPageId,
        lastName: z.string(),
        firstName: z.string(),
        /** An anniversary rule's code (server/domain/memorial/anniversaries.ts). */
        code: z.string(),
        date: calendarDate,
      }),
    ),
    recentCondolences: z.array(
      z.object({
        id: z.string(),
        memorialPageId,
        authorUserId: userId,
        authorLastName: z.string(),
        authorFirstName: z.string(),
        body: z.string(),
        createdAt: timestamp,
      }),
    ),
  })
  .meta({ id: 'Mourning' });

export const profileView = z
  .object({
    userId,
    email: z.string(),
    lastName: z.string(),
    firstName: z.string(),
    lastNameKana: z.string(),
    firstNameKana: z.string(),
    /** A prefecture's name. */
    address: z.string().nullable(),
    birthdate: calendarDate.nullable(),
    sexCode: z.literal(SEX_CODES).nullable(),
    /** The icon's object name, which PATCH takes back; `iconUrl` shows it. */
    iconName: z.string().nullable(),
    iconUrl: z.string().nullable(),
    searchable: z.boolean(),
  })
  .meta({
    id: 'Profile',
    examples: [
      {
        userId: '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14',
        email: 'taro@example.jp',
        lastName: sample.lastName,
        firstName: sample.firstName,
        lastNameKana: sample.lastNameKana,
        firstNameKana: sample.username,
        address: sample.address,
        birthdate: '1948-04-01',
        sexCode: 1,
        iconName: null,
        iconUrl: null,
        searchable: true,
      },
    ],
  });

/**
 * PATCH /v1/mypage/profile's body. A birthdate must not be after `today` in Japan: the
 * server passes its clock's day, the contract's own schema the browser's.
 */
export const profileUpdateBody = (options: { today?: () => string } = {}) =>
  profileUpdateSchema(options).meta({
    examples: [
      {
        last_name: sample.lastName,
        first_name: sample.guestFirstName,
        address: sample.otherPrefecture,
        searchable: false,
      },
    ],
  });

const relationshipBody = relationshipBodySchema.meta({ examples: [{ relationship: 'friend' }] });

const memberParams = z.object({ user_id: z.uuid({ error: 'user_id_invalid' }) });
const requestParams = z.object({ request_id: z.uuid({ error: 'request_id_invalid' }) });
const notificationParams = z.object({
  notification_id: z.uuid({ error: 'notification_id_invalid' }),
});

export const socialEndpoints = named({
  listConnections: endpoint({
    method: 'GET',
    path: '/v1/connection/connections',
    summary: "The caller's connections, by the reading of their names",
    tag: CONNECTIONS,
    caller: 'member',
    responses: { 200: z.object({ items: z.array(connection) }) },
  }),
  setRelationship: endpoint({
    method: 'PATCH',
    path: '/v1/connection/connections/:user_id',
    summary: 'Changes what the caller calls a connection; the other side keeps theirs',
    tag: CONNECTIONS,
    caller: 'member',
    params: memberParams,
    body: relationshipBody,
    responses: { 204: noBody, 404: errorBody },
  }),
  removeConnection: endpoint({
    method: 'DELETE',
    path: '/v1/connection/connections/:user_id',
    summary: 'Ends a connection in both directions, quietly',
    tag: CONNECTIONS,
    caller: 'member',
    params: memberParams,
    responses: { 204: noBody, 404: errorBody },
  }),
  listRequests: endpoint({
    method: 'GET',
    path: '/v1/connection/requests',
    summary: 'Pending requests the caller received and sent, newest first',
    tag: CONNECTIONS,
    caller: 'member',
    responses: { 200: requestsAnswer },
  }),
  sendRequest: endpoint({
    method: 'POST',
    path: '/v1/connection/requests',
    summary: 'Asks a member to connect (201); when they had already asked, connects at once (200)',
    tag: CONNECTIONS,
    caller: 'member',
    body: sendRequestSchema.meta({
      examples: [{ to_user_id: '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14', relationship: 'friend' }],
    }),
    responses: { 200: sendOutcome, 201: sendOutcome, 404: errorBody, 409: errorBody },
  }),
  acceptRequest: endpoint({
    method: 'POST',
    path: '/v1/connection/requests/:request_id/accept',
    summary: 'The recipient accepts, with their own relationship (409 once answered)',
    tag: CONNECTIONS,
    caller: 'member',
    params: requestParams,
    body: relationshipBody,
    responses: { 204: noBody, 404: errorBody, 409: errorBody },
  }),
  declineRequest: endpoint({
    method: 'POST',
    path: '/v1/connection/requests/:request_id/decline',
    summary: 'The recipient declines; the sender is not told',
    tag: CONNECTIONS,
    caller: 'member',
    params: requestParams,
    responses: { 204: noBody, 404: errorBody, 409: errorBody },
  }),
  cancelRequest: endpoint({
    method: 'POST',
    path: '/v1/connection/requests/:request_id/cancel',
    summary: 'The sender withdraws a request',
    tag: CONNECTIONS,
    caller: 'member',
    params: requestParams,
    responses: { 204: noBody, 404: errorBody, 409: errorBody },
  }),
  searchMembers: endpoint({
    method: 'GET',
    path: '/v1/user_search',
    summary: 'Members by name, written or read, whole or partial; pages go on from `cursor`',
    tag: SEARCH,
    caller: 'member',
    query: userSearchSchema,
    responses: {
      200: z.object({
        items: z.array(searchResult),
        /** Opaque: the next page's `cursor`, null on the last page. */
        nextCursor: z.string().nullable(),
      }),
    },
    rateLimited: true,
  }),
  listNotifications: endpoint({
    method: 'GET',
    path: '/v1/notification/user_notifications',
    summary: "A page of the caller's notifications, newest first",
    tag: NOTIFICATIONS,
    caller: 'member',
    query: pagingSchema,
    responses: {
      200: z.object({
        items: z.array(notificationItem),
        page: z.int(),
        perPage: z.int(),
        hasMore: z.boolean(),
      }),
    },
  }),
  unreadCount: endpoint({
    method: 'GET',
    path: '/v1/notification/user_notifications/unread/count',
    summary: 'How many notifications are unread (the badge)',
    tag: NOTIFICATIONS,
    caller: 'member',
    responses: { 200: z.object({ count: z.int().min(0) }) },
  }),
  markRead: endpoint({
    method: 'POST',
    path: '/v1/notification/user_notifications/:notification_id/read',
    summary: "Marks one of the caller's notifications read",
    tag: NOTIFICATIONS,
    caller: 'member',
    params: notificationParams,
    responses: { 204: noBody, 404: errorBody },
  }),
  markAllRead: endpoint({
    method: 'POST',
    path: '/v1/notification/user_notifications/read_all',
    summary: 'Marks every unread notification of the caller read; answers how many',
    tag: NOTIFICATIONS,
    caller: 'member',
    responses: { 200: z.object({ marked: z.int().min(0) }) },
  }),
  readDashboard: endpoint({
    method: 'GET',
    path: '/v1/dashboard',
    summary: "The home tab's summary: own page, unread notifications, connections' news",
    tag: HOME,
    caller: 'member',
    responses: { 200: dashboardView },
  }),
  readMourning: endpoint({
    method: 'GET',
    path: '/v1/mourning',
    summary: 'The mourning tab: pages remembered, coming anniversaries, recent condolences',
    tag: HOME,
    caller: 'member',
    responses: { 200: mourningView },
  }),
  readProfile: endpoint({
    method: 'GET',
    path: '/v1/mypage/profile',
    summary: "The caller's own profile",
    tag: HOME,
    caller: 'member',
    responses: { 200: profileView, 404: errorBody },
  }),
  updateProfile: endpoint({
    method: 'PATCH',
    path: '/v1/mypage/profile',
    summary: 'Changes any fields of the profile, each with the registration rules',
    tag: HOME,
    caller: 'member',
    body: profileUpdateBody(),
    responses: { 200: profileView, 404: errorBody },
  }),
});
