/**
 * Who may do what on a memorial page: every memorial endpoint against every privacy setting
 * and every kind of caller. What a caller may not know exists answers 404 (401 when signed
 * out, so that signing in is offered without revealing whether the page exists).
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorialPageMembers } from '../../server/db/schema';
import { PRIVACY_SETTINGS, type Privacy } from '../../contract/rules/memorial';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp, type TestRequest } from '../support/testApp';
import { upload } from './memorialSupport';

const ACTORS = ['owner', 'admin', 'viewer', 'connection', 'stranger', 'anonymous'] as const;
type Actor = (typeof ACTORS)[number];

/** read: anyone who may see the page; participate: signed in and may see it; admin: admins. */
type Kind = 'read' | 'participate' | 'admin';

/** The privacy rules of docs/memorial.md, written independently of the server's code. */
function maySee(actor: Actor, privacy: Privacy): boolean {
  switch (actor) {
    case 'owner':
    case 'admin':
      return true;
    case 'viewer':
      return privacy !== 'admins';
    case 'connection':
      return privacy !== 'admins';
    case 'stranger':
      return privacy === 'public' || privacy === 'link';
    case 'anonymous':
      return privacy === 'public';
  }
}

function expectedStatus(kind: Kind, actor: Actor, privacy: Privacy, success: number): number {
  const isAdmin = actor === 'owner' || actor === 'admin';
  if (actor === 'anonymous' && kind !== 'read') return 401;
  if (!maySee(actor, privacy)) return actor === 'anonymous' ? 401 : 404;
  if (kind === 'admin' && !isAdmin) return 403;
  return success;
}

interface PageFixture {
  pageId: string;
  owner: TestMember;
}

interface Endpoint {
  name: string;
  kind: Kind;
  success: number;
  /**
   * Builds the request; may create what it acts on (a photo to delete) as the page owner, or
   * what the caller brings (an upload) with the caller's token.
   */
  request(page: PageFixture, token: string | undefined): Promise<Omit<TestRequest, 'token'>>;
}

let t: TestApp;
const pages = new Map<Privacy, PageFixture>();
const members = {} as Record<Exclude<Actor, 'anonymous' | 'owner'>, TestMember>;

async function asOwner(page: PageFixture, request: Omit<TestRequest, 'token'>) {
  const response = await t.request({ ...request, token: page.owner.token });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as { id: string };
}

/** An upload of the member whose token is given (undefined: without an account). */
async function tinyImage(token: string | undefined): Promise<string> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ccc' } })
    .png()
    .toBuffer();
  return upload(t, png, { token, fileName: 'tiny.png' });
}

const album = (page: PageFixture) => `/v1/album/memorial_page_id/${page.pageId}/album`;
const history = (page: PageFixture) => `/v1/history/memorial_page_id/${page.pageId}/history`;
const condolences = (page: PageFixture) => `/v1/memorial_page/${page.pageId}/condolences`;

const newPhoto = async (page: PageFixture) =>
  asOwner(page, {
    method: 'POST',
    url: album(page),
    body: { image_name: await tinyImage(page.owner.token) },
  });
const newEntry = (page: PageFixture) =>
  asOwner(page, {
    method: 'POST',
    url: history(page),
    body: { occurred_on: '2001-01-01', body: '記録' },
  });

const ENDPOINTS: Endpoint[] = [
  {
    name: 'GET page',
    kind: 'read',
    success: 200,
    request: async (page) => ({ method: 'GET', url: `/v1/memorial_page/${page.pageId}` }),
  },
  {
    name: 'GET album',
    kind: 'read',
    success: 200,
    request: async (page) => ({ method: 'GET', url: album(page) }),
  },
  {
    name: 'GET histories',
    kind: 'read',
    success: 200,
    request: async (page) => ({
      method: 'GET',
      url: `/v1/history/get_histories_by_memorial_page_id/${page.pageId}`,
    }),
  },
  {
    name: 'GET admins',
    kind: 'read',
    success: 200,
    request: async (page) => ({
      method: 'GET',
      url: `/v1/memorial_page/get_memorial_page_admin/${page.pageId}`,
    }),
  },
  {
    name: 'GET condolences',
    kind: 'read',
    success: 200,
    request: async (page) => ({ method: 'GET', url: condolences(page) }),
  },
  {
    name: 'POST condolence',
    kind: 'participate',
    success: 201,
    request: async (page) => ({
      method: 'POST',
      url: condolences(page),
      body: { body: 'お悔やみ申し上げます。' },
    }),
  },
  {
    name: 'POST flowers',
    kind: 'participate',
    success: 200,
    request: async (page) => ({ method: 'POST', url: `/v1/memorial_page/${page.pageId}/flowers` }),
  },
  {
    name: 'PATCH page',
    kind: 'admin',
    success: 200,
    request: async (page) => ({
      method: 'PATCH',
      url: `/v1/memorial_page/${page.pageId}`,
      body: { searchable: true },
    }),
  },
  {
    name: 'POST album photo',
    kind: 'admin',
    success: 201,
    request: async (page, token) => ({
      method: 'POST',
      url: album(page),
      body: { image_name: await tinyImage(token), caption: '写真' },
    }),
  },
  {
    name: 'PUT album order',
    kind: 'admin',
    success: 200,
    request: async (page) => {
      const photos = await t.request({ method: 'GET', url: album(page), token: page.owner.token });
      const ids = (photos.json() as { id: string }[]).map((photo) => photo.id);
      return { method: 'PUT', url: `${album(page)}/order`, body: { photo_ids: ids.reverse() } };
    },
  },
  {
    name: 'PATCH album photo',
    kind: 'admin',
    success: 200,
    request: async (page) => ({
      method: 'PATCH',
      url: `${album(page)}/${(await newPhoto(page)).id}`,
      body: { caption: '変更' },
    }),
  },
  {
    name: 'DELETE album photo',
    kind: 'admin',
    success: 204,
    request: async (page) => ({
      method: 'DELETE',
      url: `${album(page)}/${(await newPhoto(page)).id}`,
    }),
  },
  {
    name: 'POST history entry',
    kind: 'admin',
    success: 201,
    request: async (page) => ({
      method: 'POST',
      url: history(page),
      body: { occurred_on: '2000-01-01', body: '出来事' },
    }),
  },
  {
    name: 'PATCH history entry',
    kind: 'admin',
    success: 200,
    request: async (page) => ({
      method: 'PATCH',
      url: `${history(page)}/${(await newEntry(page)).id}`,
      body: { body: '書き直し' },
    }),
  },
  {
    name: 'DELETE history entry',
    kind: 'admin',
    success: 204,
    request: async (page) => ({
      method: 'DELETE',
      url: `${history(page)}/${(await newEntry(page)).id}`,
    }),
  },
  {
    name: 'PATCH condolence (approve)',
    kind: 'admin',
    success: 200,
    request: async (page) => {
      const message = await t.request({
        method: 'POST',
        url: condolences(page),
        token: page.owner.token,
        body: { body: '安らかに' },
      });
      return {
        method: 'PATCH',
        url: `${condolences(page)}/${message.json().id}`,
        body: { status: 'approved' },
      };
    },
  },
  {
    name: 'POST create_share_token',
    kind: 'admin',
    success: 201,
    request: async (page) => ({
      method: 'POST',
      url: '/v1/share_token/create_share_token',
      body: { memorial_page_id: page.pageId, set_admin: true },
    }),
  },
  {
    name: 'POST add_memorial_page_admin (a viewer of the page)',
    kind: 'admin',
    success: 200,
    request: async (page) => {
      const newcomer = await createMember(t);
      await t.ctx.database.db
        .insert(memorialPageMembers)
        .values({ memorialPageId: page.pageId, userId: newcomer.id, role: 'viewer' });
      return {
        method: 'POST',
        url: `/v1/memorial_page/add_memorial_page_admin/${page.pageId}/${newcomer.id}`,
      };
    },
  },
];

beforeAll(async () => {
  t = await createTestApp();
  members.admin = await createMember(t);
  members.viewer = await createMember(t);
  members.connection = await createMember(t);
  members.stranger = await createMember(t);
  for (const privacy of PRIVACY_SETTINGS) {
    const owner = await createMember(t);
    const page = { pageId: owner.memorialPageId, owner };
    await t.ctx.database.db.insert(memorialPageMembers).values([
      { memorialPageId: page.pageId, userId: members.admin.id, role: 'admin' },
      { memorialPageId: page.pageId, userId: members.viewer.id, role: 'viewer' },
    ]);
    await asOwner(page, {
      method: 'PATCH',
      url: `/v1/memorial_page/${page.pageId}`,
      body: { privacy },
    });
    await newPhoto(page);
    pages.set(privacy, page);
  }
  // The connection knows the co-admin, not the owner: any admin's circle counts.
  await connectMembers(t, members.admin, members.connection);
});
afterAll(async () => {
  await t.close();
});

function tokenOf(actor: Actor, page: PageFixture): string | undefined {
  if (actor === 'anonymous') return undefined;
  if (actor === 'owner') return page.owner.token;
  return members[actor].token;
}

const cases = ENDPOINTS.flatMap((endpoint) =>
  PRIVACY_SETTINGS.flatMap((privacy) =>
    ACTORS.map((actor) => ({
      endpoint,
      privacy,
      actor,
      expected: expectedStatus(endpoint.kind, actor, privacy, endpoint.success),
    })),
  ),
);

describe('memorial authorisation matrix', () => {
  it.each(cases)(
    '$endpoint.name on a $privacy page by $actor → $expected',
    async ({ endpoint, privacy, actor, expected }) => {
      const page = pages.get(privacy)!;
      const token = tokenOf(actor, page);
      const request = await endpoint.request(page, token);
      const response = await t.request({ ...request, token });
      expect(response.statusCode, response.body).toBe(expected);
      if (expected >= 400) {
        expect(response.json()).toMatchObject({
          detail: expect.any(String),
          code: expect.any(String),
        });
      }
    },
  );

  it('answers a page that does not exist like one the caller may not see', async () => {
    const missing = randomUUID();
    const signedIn = await t.request({
      method: 'GET',
      url: `/v1/album/memorial_page_id/${missing}/album`,
      token: members.stranger.token,
    });
    expect(signedIn.statusCode).toBe(404);
    const signedOut = await t.request({ method: 'GET', url: `/v1/memorial_page/${missing}` });
    expect(signedOut.statusCode).toBe(401);
    const malformed = await t.request({
      method: 'GET',
      url: '/v1/memorial_page/not-a-uuid',
      token: members.stranger.token,
    });
    expect(malformed.statusCode).toBe(404);
  });

  it("does not reach another page's photo, entry or message through a page one administers", async () => {
    const mine = pages.get('public')!;
    const theirs = pages.get('admins')!;
    const photo = await newPhoto(theirs);
    const entry = await newEntry(theirs);
    const message = await asOwner(theirs, {
      method: 'POST',
      url: condolences(theirs),
      body: { body: 'ひとこと' },
    });
    const attempts: Omit<TestRequest, 'token'>[] = [
      { method: 'DELETE', url: `${album(mine)}/${photo.id}` },
      { method: 'PATCH', url: `${history(mine)}/${entry.id}`, body: { body: 'x' } },
      { method: 'PATCH', url: `${condolences(mine)}/${message.id}`, body: { status: 'hidden' } },
    ];
    for (const attempt of attempts) {
      const response = await t.request({ ...attempt, token: mine.owner.token });
      expect(response.statusCode, attempt.url).toBe(404);
    }
  });

  it('lets the viewer see the mode admin_view and admins admin_edit', async () => {
    const page = pages.get('connections')!;
    const read = async (token: string) =>
      (await t.request({ method: 'GET', url: `/v1/memorial_page/${page.pageId}`, token })).json();
    expect(await read(page.owner.token)).toMatchObject({ role: 'admin', mode: 'admin_edit' });
    expect(await read(members.admin.token)).toMatchObject({ role: 'admin', mode: 'admin_edit' });
    expect(await read(members.connection.token)).toMatchObject({ role: null, mode: 'admin_view' });
  });
});

describe('invitation calls carry their own credential (the share token)', () => {
  it.each(['owner', 'stranger', 'anonymous'] as const)(
    'validate and resolve answer the same to %s; accepting needs a signed-in member',
    async (actor) => {
      const page = pages.get('admins')!;
      const share = await asOwner(page, {
        method: 'POST',
        url: '/v1/share_token/create_share_token',
        body: { memorial_page_id: page.pageId, set_admin: false },
      });
      const { token: shareToken, invitingUserId } = share as unknown as {
        token: string;
        invitingUserId: string;
      };
      const body = { token: shareToken, inviting_user_id: invitingUserId };
      const token = tokenOf(actor, page);
      const validate = await t.request({
        method: 'POST',
        url: '/v1/share_token/validate_share_token',
        body,
        token,
      });
      expect(validate.json()).toEqual({ isValid: true });
      const resolve = await t.request({
        method: 'POST',
        url: '/v1/memorial_page/get_memorial_page_id_from_inviting_user_id',
        body,
        token,
      });
      expect(resolve.json()).toBe(page.pageId);
      const connect = await t.request({
        method: 'POST',
        url: '/v1/connection/create_connection_to_inviting_user',
        body,
        token,
      });
      expect(connect.statusCode).toBe({ owner: 404, stranger: 204, anonymous: 401 }[actor]);
    },
  );
});
