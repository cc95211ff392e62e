import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { timecapsuleDepsOf } from '../../server/areaDeps';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { fetchSigned, jpegPhoto, tryUpload, upload } from './memorialSupport';
import { createTestApp, type TestApp } from '../support/testApp';

const BASE = '/v1/time_capsule_letter';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
let writer: TestMember;
let reader: TestMember;
let admin: TestMember;
let stranger: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  writer = await createMember(t, { lastName: '佐藤', firstName: '花子' });
  reader = await createMember(t, { lastName: '佐藤', firstName: '一郎' });
  admin = await createMember(t, { lastName: '鈴木', firstName: '次郎' });
  stranger = await createMember(t, { lastName: '田中', firstName: '三郎' });
  await connectMembers(t, writer, reader, 'family');
  await connectMembers(t, writer, admin, 'friend');
});
afterAll(async () => {
  await t.close();
});

/** A letter to `reader` for 1 January 2027, 09:00 Japan time, managed by `admin`. */
const letterBody = (overrides: Record<string, unknown> = {}) => ({
  title: '二十歳のあなたへ',
  body: 'おめでとう。',
  recipients: [{ kind: 'member', user_id: reader.id }],
  admin_user_ids: [admin.id],
  delivery: { rule: 'date', send_at: '2027-01-01T09:00' },
  ...overrides,
});

async function create(body: unknown = letterBody(), token = writer.token): Promise<string> {
  const response = await t.request({ method: 'POST', url: BASE, token, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().timeCapsuleLetterId;
}

/** Access tokens live minutes; after a jump of the clock the members sign in again. */
async function renewTokens(): Promise<void> {
  for (const member of [writer, reader, admin, stranger])
    member.token = await issueAccessToken(member.id, t.config.authSecret, t.clock);
}

async function unreadCount(member: TestMember): Promise<number> {
  const response = await t.request({
    method: 'GET',
    url: '/v1/notification/user_notifications/unread/count',
    token: member.token,
  });
  return response.json().count;
}

/** The member's notice that the letter reached them. */
async function letterNotice(member: TestMember, letterId: string): Promise<unknown> {
  const response = await t.request({
    method: 'GET',
    url: '/v1/notification/user_notifications?per_page=50',
    token: member.token,
  });
  return response
    .json()
    .items.find(
      (item: { kind: string; payload: { letterId?: string } }) =>
        item.kind === 'letter_delivered' && item.payload.letterId === letterId,
    );
}

const deliver = async () => deliverAllDueLetters(timecapsuleDepsOf(t.ctx));

describe('composing letters', () => {
  it('stores a Japan-time send date as UTC and lists the letter as unsent', async () => {
    t.clock.advance(60_000);
    const id = await create();
    const list = await t.request({
      method: 'GET',
      url: `${BASE}/get_unsent_letters`,
      token: writer.token,
    });
    expect(list.statusCode).toBe(200);
    const letter = list
      .json()
      .find((l: { timeCapsuleLetterId: string }) => l.timeCapsuleLetterId === id);
    expect(letter).toEqual({
      timeCapsuleLetterId: id,
      receiverFirstName: '一郎',
      receiverLastName: '佐藤',
      receivers: [{ firstName: '一郎', lastName: '佐藤' }],
      title: '二十歳のあなたへ',
      sendDate: '2027-01-01T00:00:00.000Z',
      event: null,
      createdAt: t.clock.now().toISOString(),
      adminFirstNames: ['次郎'],
      adminLastNames: ['鈴木'],
      updatedAt: t.clock.now().toISOString(),
    });
    expect(letter.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('accepts a non-member recipient and death rules', async () => {
    const id = await create(
      letterBody({
        recipients: [
          { kind: 'guest', last_name: '高橋', first_name: '桜', email: 'sakura@example.jp' },
        ],
        delivery: { rule: 'death_anniversary', anniversary_years: 6 },
      }),
    );
    const read = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: writer.token });
    expect(read.json()).toMatchObject({
      role: 'writer',
      event: 'death_anniversary',
      anniversaryYears: 6,
      sendDate: null,
      recipients: [
        { kind: 'guest', email: 'sakura@example.jp', firstName: '桜', deliveredAt: null },
      ],
    });
  });

  it('refuses recipients and admins who are not connections, past dates and bad fields (422)', async () => {
    const response = await t.request({
      method: 'POST',
      url: BASE,
      token: writer.token,
      body: letterBody({
        recipients: [{ kind: 'member', user_id: stranger.id }],
        admin_user_ids: [stranger.id],
        photo_names: ['../../etc/passwd'],
        delivery: { rule: 'date', send_at: '2026-11-21T09:00' },
      }),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(
      expect.arrayContaining([
        { field: 'recipients.0.user_id', code: 'not_connected' },
        { field: 'admin_user_ids.0', code: 'not_connected' },
        { field: 'photo_names.0', code: 'photo_invalid' },
        { field: 'delivery.send_at', code: 'must_be_future' },
      ]),
    );
    const shape = await t.request({
      method: 'POST',
      url: BASE,
      token: writer.token,
      body: { title: '', recipients: [], delivery: { rule: 'death', delay_days: -1 } },
    });
    expect(shape.statusCode).toBe(422);
    expect(shape.json().errors).toEqual(
      expect.arrayContaining([
        { field: 'title', code: 'required' },
        { field: 'body', code: 'required' },
        { field: 'recipients', code: 'required' },
        { field: 'delivery.delay_days', code: 'number_out_of_range' },
      ]),
    );
  });

  it('lets the writer edit and delete an unsent letter, and nobody else', async () => {
    const id = await create();
    const edited = letterBody({
      title: '書き直しました',
      delivery: { rule: 'death', delay_days: 30 },
    });
    for (const member of [reader, admin, stranger]) {
      const put = await t.request({
        method: 'PUT',
        url: `${BASE}/${id}`,
        token: member.token,
        body: edited,
      });
      expect(put.statusCode).toBe(404);
      const del = await t.request({ method: 'DELETE', url: `${BASE}/${id}`, token: member.token });
      expect(del.statusCode).toBe(404);
    }
    t.clock.advance(1000);
    const put = await t.request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      token: writer.token,
      body: edited,
    });
    expect(put.statusCode).toBe(200);
    const read = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: writer.token });
    expect(read.json()).toMatchObject({
      title: '書き直しました',
      event: 'death',
      delayDays: 30,
      sendDate: null,
    });
    expect(read.json().updatedAt).toBe(t.clock.now().toISOString());
    const del = await t.request({ method: 'DELETE', url: `${BASE}/${id}`, token: writer.token });
    expect(del.statusCode).toBe(204);
    const gone = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: writer.token });
    expect(gone.statusCode).toBe(404);
  });
});

describe('photos of a letter', () => {
  it('takes the writer’s own checked uploads, keeps those already on the letter and deletes a removed one', async () => {
    const photo = await upload(t, await jpegPhoto(80, 60), {
      token: writer.token,
      fileName: 'photo.jpg',
      contentType: 'text/html',
    });
    const id = await create(letterBody({ photo_names: [photo] }));
    const read = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: writer.token });
    const [shown] = read.json().photos as { name: string; url: string }[];
    expect(shown!.name).toBe(photo);
    const served = await fetchSigned(t, shown!.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');

    const text = await tryUpload(t, Buffer.from('<script>alert(1)</script>'), {
      token: writer.token,
      fileName: 'cute.png',
      contentType: 'image/png',
    });
    expect(text.put.statusCode).toBe(415);
    const refused = await t.request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      token: writer.token,
      body: letterBody({ photo_names: [photo, text.imageName] }),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([{ field: 'photo_names.1', code: 'upload_missing' }]);
    const missing = await t.request({
      method: 'POST',
      url: BASE,
      token: writer.token,
      body: letterBody({ photo_names: ['uploads/AAAAAAAAAAAAAAAAAAAAAA.png'] }),
    });
    expect(missing.json().errors).toEqual([{ field: 'photo_names.0', code: 'upload_missing' }]);
    const othersPhoto = await upload(t, await jpegPhoto(20, 20), { token: reader.token });
    const taken = await t.request({
      method: 'POST',
      url: BASE,
      token: writer.token,
      body: letterBody({ photo_names: [othersPhoto] }),
    });
    expect(taken.json().errors).toEqual([{ field: 'photo_names.0', code: 'upload_missing' }]);

    // A photo already on the letter stays; a second one is added; then the first is removed
    // and its file goes with it.
    const second = await upload(t, await jpegPhoto(40, 30), { token: writer.token });
    const added = await t.request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      token: writer.token,
      body: letterBody({ title: '写真を添えて', photo_names: [photo, second] }),
    });
    expect(added.statusCode, added.body).toBe(200);
    const removed = await t.request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      token: writer.token,
      body: letterBody({ photo_names: [second] }),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await t.ctx.store.get(photo)).toBeUndefined();
    expect(await t.ctx.store.get(second)).toBeDefined();
    const deleted = await t.request({
      method: 'DELETE',
      url: `${BASE}/${id}`,
      token: writer.token,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await t.ctx.store.get(second)).toBeUndefined();
  });
});

describe('who sees what', () => {
  let id: string;
  beforeAll(async () => {
    id = await create(
      letterBody({
        title: 'ひみつ',
        body: '本文はまだ秘密です。',
        delivery: { rule: 'date', send_at: '2026-12-01T09:00' },
      }),
    );
  });

  it('answers 401 to every call without a token', async () => {
    const calls = [
      ['GET', `${BASE}/get_admin_letters`],
      ['GET', `${BASE}/get_received_letters`],
      ['GET', `${BASE}/get_unsent_letters`],
      ['POST', BASE],
      ['POST', `${BASE}/claim`],
      ['GET', `${BASE}/${id}`],
      ['PUT', `${BASE}/${id}`],
      ['DELETE', `${BASE}/${id}`],
    ] as const;
    for (const [method, url] of calls) {
      const response = await t.request({
        method,
        url,
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('shows the admin the envelope without the body before delivery', async () => {
    const list = await t.request({
      method: 'GET',
      url: `${BASE}/get_admin_letters`,
      token: admin.token,
    });
    const envelope = list
      .json()
      .find((l: { timeCapsuleLetterId: string }) => l.timeCapsuleLetterId === id);
    expect(envelope).toMatchObject({
      title: 'ひみつ',
      receiverLastName: '佐藤',
      adminLastNames: ['鈴木'],
    });
    expect(JSON.stringify(list.json())).not.toContain('本文はまだ秘密です。');
    const read = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: admin.token });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ role: 'admin', body: null, deliveredAt: null });
  });

  it('hides an undelivered letter from its recipient and from strangers (404)', async () => {
    for (const member of [reader, stranger]) {
      const read = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: member.token });
      expect(read.statusCode).toBe(404);
    }
    const received = await t.request({
      method: 'GET',
      url: `${BASE}/get_received_letters`,
      token: reader.token,
    });
    expect(received.json()).toEqual([]);
    for (const list of ['get_admin_letters', 'get_unsent_letters']) {
      const response = await t.request({
        method: 'GET',
        url: `${BASE}/${list}`,
        token: stranger.token,
      });
      expect(response.json()).toEqual([]);
    }
    const unknown = await t.request({
      method: 'GET',
      url: `${BASE}/${UNKNOWN_ID}`,
      token: writer.token,
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.request({
      method: 'GET',
      url: `${BASE}/not-a-uuid`,
      token: writer.token,
    });
    expect(malformed.statusCode).toBe(404);
  });

  it('after delivery: the recipient reads it (opened), the writer sees when, and nobody can change it', async () => {
    t.clock.set('2026-12-01T00:00:00Z');
    await renewTokens();
    expect(await deliver()).toBeGreaterThanOrEqual(1);

    const received = await t.request({
      method: 'GET',
      url: `${BASE}/get_received_letters`,
      token: reader.token,
    });
    expect(received.json()).toContainEqual({
      timeCapsuleLetterId: id,
      senderFirstName: '花子',
      senderLastName: '佐藤',
      title: 'ひみつ',
      createdAt: expect.any(String),
      deliveredAt: '2026-12-01T00:00:00.000Z',
      openedAt: null,
      late: false,
    });
    const unsent = await t.request({
      method: 'GET',
      url: `${BASE}/get_unsent_letters`,
      token: writer.token,
    });
    expect(
      unsent.json().map((l: { timeCapsuleLetterId: string }) => l.timeCapsuleLetterId),
    ).not.toContain(id);

    const unreadBefore = await unreadCount(reader);
    expect(await letterNotice(reader, id)).toMatchObject({ readAt: null });

    t.clock.advance(5 * 60_000);
    const read = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: reader.token });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      role: 'recipient',
      body: '本文はまだ秘密です。',
      openedAt: '2026-12-01T00:05:00.000Z',
      late: false,
    });
    // Reading the letter answers its notice: the badge drops by one.
    expect(await letterNotice(reader, id)).toMatchObject({ readAt: '2026-12-01T00:05:00.000Z' });
    expect(await unreadCount(reader)).toBe(unreadBefore - 1);
    t.clock.advance(60_000);
    const again = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: reader.token });
    expect(again.json().openedAt).toBe('2026-12-01T00:05:00.000Z');

    const asWriter = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: writer.token });
    expect(asWriter.json().recipients).toEqual([
      expect.objectContaining({
        userId: reader.id,
        deliveredAt: '2026-12-01T00:00:00.000Z',
        openedAt: '2026-12-01T00:05:00.000Z',
      }),
    ]);
    const asAdmin = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: admin.token });
    expect(asAdmin.json()).toMatchObject({ role: 'admin', body: '本文はまだ秘密です。' });
    const asStranger = await t.request({
      method: 'GET',
      url: `${BASE}/${id}`,
      token: stranger.token,
    });
    expect(asStranger.statusCode).toBe(404);

    const put = await t.request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      token: writer.token,
      body: letterBody(),
    });
    expect(put.statusCode).toBe(409);
    expect(put.json()).toMatchObject({ code: 'letter_delivered' });
    const del = await t.request({ method: 'DELETE', url: `${BASE}/${id}`, token: writer.token });
    expect(del.statusCode).toBe(409);
  });
});
