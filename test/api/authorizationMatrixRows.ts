import { dataExports } from '../../server/db/schema';
import type { TestRequest } from '../support/testApp';
import type { Principal, World } from './authorizationWorld';

/**
 * One row of the authorisation matrix: how a principal asks for the route, and the status
 * each principal must get. The key is the route as the server registered it (`METHOD url`).
 * `fresh: true` gives the row a world of its own (for calls that undo the fixtures).
 */
export interface Row {
  request(
    world: World,
    as: Principal,
  ): Promise<Omit<TestRequest, 'token'>> | Omit<TestRequest, 'token'>;
  expect: Record<Principal, number>;
  fresh?: boolean;
}

type Statuses = Partial<Record<Principal, number>>;

/** Every principal gets the same status (public calls, and calls refused to all). */
const everyone = (status: number, overrides: Statuses = {}): Record<Principal, number> => ({
  anonymous: status,
  integration: status,
  stranger: status,
  connection: status,
  noteReader: status,
  deathAdmin: status,
  viewer: status,
  admin: status,
  owner: status,
  ...overrides,
});

/** A member's own things: 401 without a bearer (the integration client has none). */
const members = (status: number, overrides: Statuses = {}) =>
  everyone(status, { anonymous: 401, integration: 401, ...overrides });

/** The owner's things: the owner gets `status`, every other member `others`. */
const ownerOnly = (status: number, others = 404, overrides: Statuses = {}) =>
  members(others, { owner: status, ...overrides });

/**
 * The owner's memorial page (privacy `connections`): signed out 401, a stranger 404, those who
 * may see it (a viewer, connections of an admin) `readers`, its admins `admins`.
 */
const page = (readers: number, admins = readers) =>
  members(readers, { stranger: 404, admin: admins, owner: admins });

const json = (method: TestRequest['method'], url: string, body?: unknown) => () => ({
  method,
  url,
  ...(body === undefined ? {} : { body }),
});

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A ready archive of the owner's (its file is never read: only links are made). */
const readyExports = new WeakMap<World, Promise<string>>();
function readyExportOf(w: World): Promise<string> {
  let id = readyExports.get(w);
  if (!id) {
    const now = w.t.clock.now();
    id = w.t.ctx.database.db
      .insert(dataExports)
      .values({
        userId: w.owner.id,
        status: 'ready',
        objectName: 'data-exports/MatrixArchiveOfTheOwner.zip',
        byteSize: 1,
        createdAt: now,
        updatedAt: now,
        readyAt: now,
        expiresAt: new Date(now.getTime() + 24 * 60 * 60 * 1000),
      })
      .returning({ id: dataExports.id })
      .then(([row]) => row!.id);
    readyExports.set(w, id);
  }
  return id;
}
const note = (w: World) => `/v1/endingnote/${w.owner.id}`;
const pageUrl = (w: World) => `/v1/memorial_page/${w.pageId}`;
const album = (w: World) => `/v1/album/memorial_page_id/${w.pageId}/album`;
const history = (w: World) => `/v1/history/memorial_page_id/${w.pageId}/history`;
const letters = '/v1/time_capsule_letter';
const memberOf = (w: World, as: Principal) =>
  as === 'anonymous' || as === 'integration' ? undefined : w.members[as];
const letter = {
  title: '未来へ',
  body: '本文',
  recipients: [{ kind: 'guest', email: 'guest@example.jp', last_name: '客', first_name: '人' }],
  delivery: { rule: 'date', send_at: '2030-01-01T09:00' },
};

/**
 * Every `/v1`, `/api/auth` and `/files` route. A route the server registers without a row here
 * fails the matrix: add its row (the helpers above name the usual shapes).
 */
export const ROWS: Record<string, Row> = {
  // Uploaded files: a signed URL is the only key; without one everyone is refused.
  'GET /files/*': { request: json('GET', '/files/uploads/x.png'), expect: everyone(403) },
  'PUT /files/*': { request: json('PUT', '/files/uploads/x.png', 'x'), expect: everyone(403) },

  // The API document and its viewer: public, the same for everyone.
  'GET /v1/openapi.json': { request: json('GET', '/v1/openapi.json'), expect: everyone(200) },
  'GET /v1/docs': { request: json('GET', '/v1/docs'), expect: everyone(200) },
  'GET /v1/docs/static/index.html': {
    request: json('GET', '/v1/docs/static/index.html'),
    expect: everyone(302),
  },
  'GET /v1/docs/static/swagger-initializer.js': {
    request: json('GET', '/v1/docs/static/swagger-initializer.js'),
    expect: everyone(200),
  },
  'GET /v1/docs/json': { request: json('GET', '/v1/docs/json'), expect: everyone(200) },
  'GET /v1/docs/yaml': { request: json('GET', '/v1/docs/yaml'), expect: everyone(200) },
  'GET /v1/docs/static/*': {
    request: json('GET', '/v1/docs/static/swagger-ui.css'),
    expect: everyone(200),
  },

  // The session layer: public shapes; every POST needs the CSRF double submit first.
  'POST /api/auth/_log': {
    request: json('POST', '/api/auth/_log', { level: 'warn', code: 'matrix' }),
    expect: everyone(204),
  },
  'GET /api/auth/csrf': { request: json('GET', '/api/auth/csrf'), expect: everyone(200) },
  'POST /api/auth/callback/credentials': {
    request: json('POST', '/api/auth/callback/credentials', {}),
    expect: everyone(403),
  },
  'POST /api/auth/callback/activation': {
    request: (w) =>
      json('POST', '/api/auth/callback/activation', { token: 'x', email: w.owner.email })(),
    expect: everyone(403),
  },
  'GET /api/auth/session': { request: json('GET', '/api/auth/session'), expect: everyone(200) },
  'POST /api/auth/session': {
    request: json('POST', '/api/auth/session', {}),
    expect: everyone(403),
  },
  'POST /api/auth/refresh': {
    // The refresh spends the session cookie's token, and like every POST here needs the CSRF pair.
    request: json('POST', '/api/auth/refresh', {}),
    expect: everyone(403),
  },
  'POST /api/auth/signout': {
    request: json('POST', '/api/auth/signout', {}),
    expect: everyone(403),
  },
  'GET /api/auth/error': { request: json('GET', '/api/auth/error'), expect: everyone(302) },
  'GET /api/auth/signin': { request: json('GET', '/api/auth/signin'), expect: everyone(302) },
  'GET /api/auth/providers': { request: json('GET', '/api/auth/providers'), expect: everyone(200) },
  'POST /api/auth/signin/:provider': {
    request: json('POST', '/api/auth/signin/line', {}),
    expect: everyone(403),
  },
  'GET /api/auth/callback/:provider': {
    request: json('GET', '/api/auth/callback/line'),
    expect: everyone(302),
  },
  'GET /api/auth/restore/:provider': {
    request: json('GET', '/api/auth/restore/line'),
    expect: everyone(302),
  },
  'GET /api/auth/activate/:provider': {
    request: json('GET', '/api/auth/activate/line'),
    expect: everyone(302),
  },

  // Accounts: sign-in and registration are open to all and know no caller.
  'POST /v1/login': {
    // Each member tries their own address, so no account reaches its lock here.
    request: (w, as) =>
      json('POST', '/v1/login', {
        username: memberOf(w, as)?.email ?? `nobody-${as}@example.jp`,
        password: 'wrong-password',
      })(),
    expect: everyone(401),
  },
  'POST /v1/refresh': {
    request: json('POST', '/v1/refresh', { refresh_token: 'not-a-token' }),
    expect: everyone(401),
  },
  'POST /v1/logout': {
    request: json('POST', '/v1/logout', { refresh_token: 'not-a-token' }),
    expect: everyone(204),
  },
  'POST /v1/logout/everywhere': {
    request: json('POST', '/v1/logout/everywhere'),
    expect: members(204),
    fresh: true,
  },
  'POST /v1/user': { request: json('POST', '/v1/user', {}), expect: everyone(422) },
  'POST /v1/user/create_inflow_user': {
    request: json('POST', '/v1/user/create_inflow_user', {}),
    expect: everyone(422),
  },
  'POST /v1/user/create_user_with_external_provider': {
    request: json('POST', '/v1/user/create_user_with_external_provider', {}),
    expect: everyone(422),
  },
  'GET /v1/user/confirm/:token/:email': {
    request: (w) => json('GET', `/v1/user/confirm/not-a-token/${w.owner.email}`)(),
    expect: everyone(400),
  },
  'POST /v1/user/confirm/:token/:email': {
    request: (w) =>
      json('POST', `/v1/user/confirm/not-a-token/${w.owner.email}`, { password: 'x' })(),
    expect: everyone(400),
  },
  'POST /v1/password_reset': {
    request: (w) => json('POST', '/v1/password_reset', { email: w.owner.email })(),
    expect: everyone(202),
  },
  'POST /v1/password_reset/confirm': {
    request: json('POST', '/v1/password_reset/confirm', {
      token: 'not-a-token',
      password: 'a-long-and-unusual-passphrase-42',
    }),
    expect: everyone(400),
  },
  'GET /v1/user/:userId': {
    request: (w) => json('GET', `/v1/user/${w.owner.id}`)(),
    expect: members(200),
  },
  'DELETE /v1/user': { request: json('DELETE', '/v1/user'), expect: members(204), fresh: true },
  'GET /v1/tmp-return-jwt': { request: json('GET', '/v1/tmp-return-jwt'), expect: everyone(401) },
  'POST /v1/mypage/password': {
    request: json('POST', '/v1/mypage/password', {
      current_password: 'wrong-password',
      new_password: 'a-long-and-unusual-passphrase-42',
    }),
    expect: members(422),
    fresh: true,
  },
  'POST /v1/mypage/email': {
    // The world's members signed in with no password: a fresh sign-in is their proof.
    request: json('POST', '/v1/mypage/email', {
      current_password: 'wrong-password',
      new_email: 'new-address@example.jp',
    }),
    expect: members(202),
    fresh: true,
  },
  'POST /v1/user/resend_activation': {
    // Same answer whether or not the address waits for activation: it reveals no account.
    request: json('POST', '/v1/user/resend_activation', { email: 'nobody@example.jp' }),
    expect: everyone(202),
  },
  'POST /v1/account/change_report': {
    // The report link's token is the only key: a forged one is refused whoever sends it.
    request: json('POST', '/v1/account/change_report', { token: 'not-a-report-token' }),
    expect: everyone(400),
  },
  'POST /v1/mypage/email/confirm': {
    request: json('POST', '/v1/mypage/email/confirm', { token: 'not-a-token' }),
    expect: everyone(400),
  },

  // The ending note: the owner; the designated reader reads what is open to them now.
  'GET /v1/endingnote/:userId': {
    request: (w) => json('GET', note(w))(),
    expect: ownerOnly(200, 404, { noteReader: 200 }),
  },
  'GET /v1/endingnote/:userId/sections/:section': {
    request: (w) => json('GET', `${note(w)}/sections/self`)(),
    expect: ownerOnly(200, 404, { noteReader: 200 }),
  },
  'PUT /v1/endingnote/:userId/sections/:section': {
    request: (w) =>
      json('PUT', `${note(w)}/sections/funeral`, { version: 0, values: { style: 'one_day' } })(),
    expect: ownerOnly(200),
  },
  'PUT /v1/endingnote/:userId/sections/:section/visibility': {
    request: (w) =>
      json('PUT', `${note(w)}/sections/funeral/visibility`, { visibility: 'private' })(),
    expect: ownerOnly(200),
  },
  'GET /v1/endingnote/:userId/readers': {
    request: (w) => json('GET', `${note(w)}/readers`)(),
    expect: ownerOnly(200),
  },
  'PUT /v1/endingnote/:userId/readers': {
    request: (w) => json('PUT', `${note(w)}/readers`, { user_ids: [w.members.noteReader.id] })(),
    expect: ownerOnly(200),
  },
  'GET /v1/endingnote/:userId/export': {
    request: (w) => json('GET', `${note(w)}/export`)(),
    expect: ownerOnly(200),
  },

  // Time-capsule letters: each member's own lists; a letter is its writer's.
  'GET /v1/time_capsule_letter/get_admin_letters/paged': {
    request: json('GET', `${letters}/get_admin_letters/paged?limit=5`),
    expect: members(200),
  },
  'GET /v1/time_capsule_letter/get_admin_letters': {
    request: json('GET', `${letters}/get_admin_letters`),
    expect: members(200),
  },
  'GET /v1/time_capsule_letter/get_received_letters/paged': {
    request: json('GET', `${letters}/get_received_letters/paged?limit=5`),
    expect: members(200),
  },
  'GET /v1/time_capsule_letter/get_received_letters': {
    request: json('GET', `${letters}/get_received_letters`),
    expect: members(200),
  },
  'GET /v1/time_capsule_letter/get_unsent_letters/paged': {
    request: json('GET', `${letters}/get_unsent_letters/paged?limit=5`),
    expect: members(200),
  },
  'GET /v1/time_capsule_letter/get_unsent_letters': {
    request: json('GET', `${letters}/get_unsent_letters`),
    expect: members(200),
  },
  'POST /v1/time_capsule_letter': { request: json('POST', letters, letter), expect: members(201) },
  'POST /v1/time_capsule_letter/claim': {
    request: json('POST', `${letters}/claim`, { token: 'not-a-token' }),
    expect: members(404),
  },
  'GET /v1/time_capsule_letter/:letterId': {
    request: (w) => json('GET', `${letters}/${w.letterId}`)(),
    expect: ownerOnly(200),
  },
  'PUT /v1/time_capsule_letter/:letterId': {
    request: (w) => json('PUT', `${letters}/${w.letterId}`, letter)(),
    expect: ownerOnly(200),
  },
  'DELETE /v1/time_capsule_letter/:letterId': {
    request: async (w) => json('DELETE', `${letters}/${await w.fresh.letterId()}`)(),
    expect: ownerOnly(204),
  },

  // Memorial pages: the owner's own page, privacy `connections`.
  'POST /v1/memorial_page': {
    request: json('POST', '/v1/memorial_page', {
      type: 'other',
      last_name: '祖父',
      first_name: '一',
      last_name_kana: 'そふ',
      first_name_kana: 'はじめ',
    }),
    expect: members(201),
  },
  'GET /v1/memorial_page/:id': { request: (w) => json('GET', pageUrl(w))(), expect: page(200) },
  'GET /v1/memorial_page/:id/share_image.jpg': {
    // A crawler's preview exists only for a public page: this one is for connections.
    request: (w) => json('GET', `${pageUrl(w)}/share_image.jpg`)(),
    expect: everyone(404),
  },
  'PATCH /v1/memorial_page/:id': {
    request: (w) => json('PATCH', pageUrl(w), { first_name: '太郎' })(),
    expect: page(403, 200),
  },
  'GET /v1/memorial_page/get_memorial_page_admin/:id': {
    request: (w) => json('GET', `/v1/memorial_page/get_memorial_page_admin/${w.pageId}`)(),
    expect: page(200),
  },
  'POST /v1/memorial_page/add_memorial_page_admin/:id/:adminUserId': {
    // Each caller names themself: an admin already is one, nobody else may make themself one.
    request: (w, as) =>
      json(
        'POST',
        `/v1/memorial_page/add_memorial_page_admin/${w.pageId}/${memberOf(w, as)?.id ?? UNKNOWN}`,
      )(),
    expect: page(403, 200),
  },
  'GET /v1/album/memorial_page_id/:id/album/paged': {
    request: (w) => json('GET', `${album(w)}/paged?limit=5`)(),
    expect: page(200),
  },
  'GET /v1/album/memorial_page_id/:id/album': {
    request: (w) => json('GET', album(w))(),
    expect: page(200),
  },
  'POST /v1/album/memorial_page_id/:id/album': {
    // A well-formed name never uploaded: admins get as far as the upload check.
    request: (w) => json('POST', album(w), { image_name: 'uploads/abcdefghijklmnop1234.png' })(),
    expect: page(403, 422),
  },
  'PUT /v1/album/memorial_page_id/:id/album/order': {
    request: (w) => json('PUT', `${album(w)}/order`, { photo_ids: [] })(),
    expect: page(403, 200),
  },
  'PATCH /v1/album/memorial_page_id/:id/album/:photoId': {
    request: (w) => json('PATCH', `${album(w)}/${UNKNOWN}`, { caption: '桜' })(),
    expect: page(403, 404),
  },
  'DELETE /v1/album/memorial_page_id/:id/album/:photoId': {
    request: (w) => json('DELETE', `${album(w)}/${UNKNOWN}`)(),
    expect: page(403, 404),
  },
  'GET /v1/history/get_histories_by_memorial_page_id/:id/paged': {
    request: (w) =>
      json('GET', `/v1/history/get_histories_by_memorial_page_id/${w.pageId}/paged?limit=5`)(),
    expect: page(200),
  },
  'GET /v1/history/get_histories_by_memorial_page_id/:id': {
    request: (w) => json('GET', `/v1/history/get_histories_by_memorial_page_id/${w.pageId}`)(),
    expect: page(200),
  },
  'POST /v1/history/memorial_page_id/:id/history': {
    request: (w) => json('POST', history(w), { occurred_on: '2001-04-01', body: '入学' })(),
    expect: page(403, 201),
  },
  'PATCH /v1/history/memorial_page_id/:id/history/:entryId': {
    request: async (w) =>
      json('PATCH', `${history(w)}/${await w.fresh.historyEntryId()}`, { body: '卒業' })(),
    expect: page(403, 200),
  },
  'DELETE /v1/history/memorial_page_id/:id/history/:entryId': {
    request: async (w) => json('DELETE', `${history(w)}/${await w.fresh.historyEntryId()}`)(),
    expect: page(403, 204),
  },
  'GET /v1/memorial_page/:id/condolences': {
    request: (w) => json('GET', `${pageUrl(w)}/condolences`)(),
    expect: page(200),
  },
  'POST /v1/memorial_page/:id/condolences': {
    request: (w) => json('POST', `${pageUrl(w)}/condolences`, { body: 'お悔やみ' })(),
    expect: page(201),
  },
  'PATCH /v1/memorial_page/:id/condolences/:condolenceId': {
    request: async (w) =>
      json('PATCH', `${pageUrl(w)}/condolences/${await w.fresh.condolenceId()}`, {
        status: 'approved',
      })(),
    expect: page(403, 200),
  },
  'POST /v1/memorial_page/:id/flowers': {
    request: (w) => json('POST', `${pageUrl(w)}/flowers`)(),
    expect: page(200),
  },

  // Invitations by link: created by admins; a made-up invitation is worth nothing to anyone.
  'POST /v1/share_token/create_share_token': {
    request: (w) =>
      json('POST', '/v1/share_token/create_share_token', {
        memorial_page_id: w.pageId,
        set_admin: false,
      })(),
    expect: page(403, 201),
  },
  'POST /v1/share_token/validate_share_token': {
    request: (w) =>
      json('POST', '/v1/share_token/validate_share_token', {
        token: 'not-a-token',
        inviting_user_id: w.owner.id,
      })(),
    expect: everyone(200),
  },
  'PATCH /v1/share_token/expire_share_token': {
    request: (w) =>
      json('PATCH', '/v1/share_token/expire_share_token', {
        token: 'not-a-token',
        inviting_user_id: w.owner.id,
      })(),
    // A made-up invitation is refused before the caller is asked for.
    expect: everyone(404),
  },
  'POST /v1/memorial_page/get_memorial_page_id_from_inviting_user_id': {
    request: (w) =>
      json('POST', '/v1/memorial_page/get_memorial_page_id_from_inviting_user_id', {
        token: 'not-a-token',
        inviting_user_id: w.owner.id,
      })(),
    expect: everyone(404),
  },
  'POST /v1/connection/create_connection_to_inviting_user': {
    request: (w) =>
      json('POST', '/v1/connection/create_connection_to_inviting_user', {
        token: 'not-a-token',
        inviting_user_id: w.owner.id,
      })(),
    expect: members(404),
  },
  'GET /v1/signed_url': {
    request: json('GET', '/v1/signed_url?method=PUT&image_name=photo.png'),
    expect: everyone(200),
  },

  // Connections and requests: each member's own; the owner's requests are the owner's.
  'GET /v1/connection/connections': {
    request: json('GET', '/v1/connection/connections'),
    expect: members(200),
  },
  'PATCH /v1/connection/connections/:user_id': {
    request: (w) =>
      json('PATCH', `/v1/connection/connections/${w.owner.id}`, { relationship: 'family' })(),
    expect: members(404, { connection: 204, noteReader: 204, deathAdmin: 204 }),
  },
  'DELETE /v1/connection/connections/:user_id': {
    request: (w) => json('DELETE', `/v1/connection/connections/${w.owner.id}`)(),
    expect: members(404, { connection: 204, noteReader: 204, deathAdmin: 204 }),
    fresh: true,
  },
  'GET /v1/connection/requests': {
    request: json('GET', '/v1/connection/requests'),
    expect: members(200),
  },
  'POST /v1/connection/requests': {
    request: (w) =>
      json('POST', '/v1/connection/requests', { to_user_id: w.owner.id, relationship: 'friend' })(),
    expect: members(201, { connection: 409, noteReader: 409, deathAdmin: 409, owner: 422 }),
    fresh: true,
  },
  'POST /v1/connection/requests/:request_id/accept': {
    request: async (w) =>
      json('POST', `/v1/connection/requests/${await requestTo(w)}/accept`, {
        relationship: 'friend',
      })(),
    expect: ownerOnly(204),
  },
  'POST /v1/connection/requests/:request_id/decline': {
    request: async (w) => json('POST', `/v1/connection/requests/${await requestTo(w)}/decline`)(),
    expect: ownerOnly(204),
  },
  'POST /v1/connection/requests/:request_id/cancel': {
    request: async (w) => json('POST', `/v1/connection/requests/${await requestFrom(w)}/cancel`)(),
    expect: ownerOnly(204),
  },
  'GET /v1/user_search': {
    request: json('GET', `/v1/user_search?q=${encodeURIComponent('山田')}`),
    expect: members(200),
  },

  // Notifications and the home tabs: each member's own.
  'GET /v1/notification/user_notifications': {
    request: json('GET', '/v1/notification/user_notifications'),
    expect: members(200),
  },
  'GET /v1/notification/user_notifications/unread/count': {
    request: json('GET', '/v1/notification/user_notifications/unread/count'),
    expect: members(200),
  },
  'POST /v1/notification/user_notifications/:notification_id/read': {
    request: (w) => json('POST', `/v1/notification/user_notifications/${w.notificationId}/read`)(),
    expect: ownerOnly(204),
  },
  'POST /v1/notification/user_notifications/read_all': {
    request: json('POST', '/v1/notification/user_notifications/read_all'),
    expect: members(200),
  },
  'GET /v1/dashboard': { request: json('GET', '/v1/dashboard'), expect: members(200) },
  'GET /v1/mourning': { request: json('GET', '/v1/mourning'), expect: members(200) },
  'GET /v1/mypage/profile': { request: json('GET', '/v1/mypage/profile'), expect: members(200) },
  'PATCH /v1/mypage/profile': {
    request: json('PATCH', '/v1/mypage/profile', { first_name: '花子' }),
    expect: members(200),
  },

  // Death detection: the owner named the death administrator; integrations use HTTP Basic.
  'GET /v1/fpos/death_settings': {
    request: json('GET', '/v1/fpos/death_settings'),
    expect: members(200),
  },
  'PUT /v1/fpos/death_settings': {
    // The owner keeps their administrator; everyone else sets their own (empty) choice.
    request: (w, as) =>
      json('PUT', '/v1/fpos/death_settings', {
        rule: 'any_one',
        administrator_user_ids: as === 'owner' ? [w.members.deathAdmin.id] : [],
        check_in_period_days: null,
      })(),
    expect: members(200),
  },
  'POST /v1/fpos/administered_users/:user_id/accept': {
    // Only the member's named administrator may accept; others learn nothing of the member.
    request: (w) => json('POST', `/v1/fpos/administered_users/${w.owner.id}/accept`)(),
    expect: members(404, { deathAdmin: 200 }),
  },
  'GET /v1/fpos/administered_users': {
    request: json('GET', '/v1/fpos/administered_users'),
    expect: members(200),
  },
  'GET /v1/fpos/death_suspected_user': {
    request: json('GET', '/v1/fpos/death_suspected_user'),
    expect: members(200),
  },
  'GET /v1/fpos/administered_user_with_suspected_death': {
    request: json('GET', '/v1/fpos/administered_user_with_suspected_death'),
    expect: members(200),
  },
  'POST /v1/fpos/cancel_death_suspected_at': {
    request: (w) =>
      json('POST', '/v1/fpos/cancel_death_suspected_at', {
        death_suspected_user_id: w.owner.id,
      })(),
    expect: ownerOnly(200),
  },
  'POST /v1/fpos/report_death_suspected': {
    request: (w) => json('POST', '/v1/fpos/report_death_suspected', { user_id: w.owner.id })(),
    expect: members(404, { deathAdmin: 201 }),
    fresh: true,
  },
  'GET /v1/fpos/death_case/:user_id': {
    request: (w) => json('GET', `/v1/fpos/death_case/${w.owner.id}`)(),
    expect: members(404, { deathAdmin: 200 }),
  },
  'GET /v1/fpos/death_audit_log/:user_id': {
    request: (w) => json('GET', `/v1/fpos/death_audit_log/${w.owner.id}`)(),
    expect: ownerOnly(200, 404, { deathAdmin: 200 }),
  },
  'POST /v1/fpos/death_confirmation/sign_request': {
    request: (w) =>
      json('POST', '/v1/fpos/death_confirmation/sign_request', {
        death_suspected_user_id: w.owner.id,
        date_of_death: '2020-01-01',
        relationship: 'friend',
      })(),
    expect: members(404, { deathAdmin: 403 }),
  },
  'POST /v1/fpos/death_confirmation': {
    request: (w) =>
      json('POST', '/v1/fpos/death_confirmation', {
        death_suspected_user_id: w.owner.id,
        date_of_death: '2020-01-01',
        relationship: 'friend',
        sign_tag: 'not-a-tag',
        sign_content: 'x',
        signature: 'x',
      })(),
    expect: members(404, { deathAdmin: 403 }),
  },
  'POST /v1/fpos/verify_my_auth_access_token': {
    request: json('POST', '/v1/fpos/verify_my_auth_access_token', {
      client_id: 'acme-life',
      fpos_user_id: 'fpos-1',
      access_token: 'not-a-token',
      expires: 4102444800,
      signature: '0'.repeat(64),
    }),
    expect: everyone(401),
  },
  'GET /v1/fpos/integration_links': {
    request: json('GET', '/v1/fpos/integration_links'),
    expect: members(200),
  },
  'DELETE /v1/fpos/integration_links/:client_id': {
    request: json('DELETE', '/v1/fpos/integration_links/acme-life'),
    expect: members(204),
  },
  'POST /v1/fpos/integration/report_death_suspected': {
    request: json('POST', '/v1/fpos/integration/report_death_suspected', {
      fpos_user_id: 'fpos-unknown',
    }),
    // The client's own namespace of linked members: an unknown one is simply not found.
    expect: everyone(401, { integration: 404 }),
  },

  // Identity verification and device tokens: each member's own.
  'GET /v1/identity_verification/status': {
    request: json('GET', '/v1/identity_verification/status'),
    expect: members(200),
  },
  'POST /v1/identity_verification/challenge': {
    request: json('POST', '/v1/identity_verification/challenge'),
    expect: members(201),
  },
  'POST /v1/identity_verification/certificate': {
    // The bearer is checked before the body: an empty body reaches validation for members only.
    request: json('POST', '/v1/identity_verification/certificate', {}),
    expect: members(422),
  },
  'GET /v1/identity_verification/certificated/:user_id': {
    request: (w) => json('GET', `/v1/identity_verification/certificated/${w.owner.id}`)(),
    expect: members(404, { connection: 200, noteReader: 200, deathAdmin: 200, owner: 200 }),
  },
  'POST /v1/device_tokens': {
    request: json('POST', '/v1/device_tokens', { token: 'device-token', platform: 'ios' }),
    expect: members(204),
  },
  'DELETE /v1/device_tokens': {
    request: json('DELETE', '/v1/device_tokens', { token: 'device-token' }),
    expect: members(204),
  },

  // The archive of all of a member's data: each member's own; the download link is the key.
  'POST /v1/data_exports': {
    request: json('POST', '/v1/data_exports', {}),
    expect: members(202),
    fresh: true,
  },
  'GET /v1/data_exports': { request: json('GET', '/v1/data_exports'), expect: members(200) },
  // The archives released members chose to hand to the caller: each member reads their own.
  'GET /v1/data_exports/entrusted': {
    request: json('GET', '/v1/data_exports/entrusted'),
    expect: members(200),
  },
  'POST /v1/data_exports/:exportId/download_link': {
    request: async (w) =>
      json('POST', `/v1/data_exports/${await readyExportOf(w)}/download_link`)(),
    expect: ownerOnly(201),
  },
  // A memorial page's keepsake: its admins only; a living member's page has none yet.
  'POST /v1/memorial_page/:id/keepsakes': {
    request: (w) => json('POST', `${pageUrl(w)}/keepsakes`)(),
    expect: page(403, 409),
  },
  'GET /v1/memorial_page/:id/keepsakes': {
    request: (w) => json('GET', `${pageUrl(w)}/keepsakes`)(),
    expect: page(403, 200),
  },
  'GET /v1/data_exports/download': {
    request: json('GET', '/v1/data_exports/download?token=not-a-download-token'),
    expect: everyone(400),
  },

  // Who can see what of one's own: each member reads only their own overview.
  'GET /v1/mypage/visibility': {
    request: json('GET', '/v1/mypage/visibility'),
    expect: members(200),
  },

  // The check-in mail's link: the token is the key, whoever holds it.
  'GET /v1/fpos/check_in/:token': {
    request: json('GET', '/v1/fpos/check_in/not-a-check-in-token-000'),
    expect: everyone(200),
  },
  'POST /v1/fpos/check_in/:token': {
    request: json('POST', '/v1/fpos/check_in/not-a-check-in-token-000'),
    expect: everyone(404),
  },
  'POST /v1/account_restoration': {
    request: json('POST', '/v1/account_restoration', {
      token: 'not-a-restoration-token',
      password: 'a-long-and-unusual-passphrase-42',
    }),
    expect: everyone(400),
  },
  'POST /v1/account_restoration/link': {
    request: json('POST', '/v1/account_restoration/link', { token: 'not-a-restoration-token' }),
    expect: everyone(400),
  },
  'POST /v1/account_restoration/proof': {
    // Without the binding cookie of a provider round trip, no assertion is believed.
    request: json('POST', '/v1/account_restoration/proof', {
      token: 'not-a-restoration-token',
      assertion: 'not-an-assertion',
    }),
    expect: everyone(401),
  },
};

/** A fresh request from a new member to the owner. */
async function requestTo(w: World): Promise<string> {
  const sender = await w.fresh.member();
  const sent = await w.t.request({
    method: 'POST',
    url: '/v1/connection/requests',
    token: sender.token,
    body: { to_user_id: w.owner.id, relationship: 'friend' },
  });
  return sent.json().requestId;
}

/** A fresh request from the owner to a new member. */
async function requestFrom(w: World): Promise<string> {
  const recipient = await w.fresh.member();
  const sent = await w.t.request({
    method: 'POST',
    url: '/v1/connection/requests',
    token: w.owner.token,
    body: { to_user_id: recipient.id, relationship: 'friend' },
  });
  return sent.json().requestId;
}
