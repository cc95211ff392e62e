import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { timecapsuleDepsOf } from '../../server/areaDeps';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

// The three letter lists a page at a time: a cursor walks each whole list once, in the order
// of the unpaged list, whatever the page size; a cursor names its list and its member, so one
// of another list or another member is refused, and no one else sees a member's letters.

const BASE = '/v1/time_capsule_letter';
const LISTS = ['get_unsent_letters', 'get_admin_letters', 'get_received_letters'] as const;
type List = (typeof LISTS)[number];

let t: TestApp;
let writer: TestMember;
let reader: TestMember;
let admin: TestMember;
let stranger: TestMember;

const get = (url: string, member: TestMember) =>
  t.request({ method: 'GET', url, token: member.token });

/** Every letter of a paged list, `limit` at a time, and the cursors that led there. */
async function allPages(list: List, limit: number, member: TestMember) {
  const ids: string[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await get(
      `${BASE}/${list}/paged?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      member,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as {
      items: { timeCapsuleLetterId: string }[];
      nextCursor: string | null;
    };
    expect(body.items.length).toBeLessThanOrEqual(limit);
    ids.push(...body.items.map((item) => item.timeCapsuleLetterId));
    cursor = body.nextCursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return { ids, cursors };
}

async function unpaged(list: List, member: TestMember): Promise<string[]> {
  const response = await get(`${BASE}/${list}`, member);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { timeCapsuleLetterId: string }[]).map(
    (letter) => letter.timeCapsuleLetterId,
  );
}

async function renewTokens(): Promise<void> {
  for (const member of [writer, reader, admin, stranger])
    member.token = await issueAccessToken(member.id, t.config.authSecret, t.clock);
}

async function write(title: string, sendAt: string): Promise<void> {
  const created = await t.request({
    method: 'POST',
    url: BASE,
    token: writer.token,
    body: {
      title,
      body: 'いつもありがとう。',
      recipients: [{ kind: 'member', user_id: reader.id }],
      admin_user_ids: [admin.id],
      delivery: { rule: 'date', send_at: sendAt },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
}

const deliver = async () => deliverAllDueLetters(timecapsuleDepsOf(t.ctx));

/** What each list held before the deliveries emptied the writer's unsent list. */
const unsentBefore: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  writer = await createMember(t, { lastName: '佐藤', firstName: '花子' });
  reader = await createMember(t, { lastName: '佐藤', firstName: '一郎' });
  admin = await createMember(t, { lastName: '鈴木', firstName: '次郎' });
  stranger = await createMember(t, { lastName: '田中', firstName: '三郎' });
  await connectMembers(t, writer, reader, 'family');
  await connectMembers(t, writer, admin, 'friend');
  // The clock stands still: letters written together share their times, so the order past
  // the time is the id's. Four letters at one time, three a minute later.
  for (let index = 0; index < 4; index += 1) await write(`一月の手紙${index}`, '2027-01-01T09:00');
  t.clock.advance(60_000);
  for (let index = 0; index < 3; index += 1) await write(`二月の手紙${index}`, '2027-02-01T09:00');
  unsentBefore.push(...(await unpaged('get_unsent_letters', writer)));
});
afterAll(async () => {
  await t.close();
});

describe('paged letter lists', () => {
  it('walk the unsent list once, in its order, at any page size', async () => {
    expect(unsentBefore).toHaveLength(7);
    for (const limit of [1, 2, 3, 100]) {
      const { ids } = await allPages('get_unsent_letters', limit, writer);
      expect(ids, `limit ${limit}`).toEqual(unsentBefore);
    }
  });

  it('walk the managed and received lists once, in their order, at any page size', async () => {
    // Two deliveries a month apart: the received list has two times, each shared by several.
    t.clock.set('2027-01-01T00:30:00.000Z');
    await renewTokens();
    expect(await deliver()).toBeGreaterThan(0);
    t.clock.set('2027-02-01T00:30:00.000Z');
    await renewTokens();
    expect(await deliver()).toBeGreaterThan(0);
    expect(await unpaged('get_unsent_letters', writer)).toEqual([]);

    for (const [list, member] of [
      ['get_admin_letters', admin],
      ['get_received_letters', reader],
    ] as const) {
      const whole = await unpaged(list, member);
      expect(whole).toHaveLength(7);
      expect(new Set(whole)).toEqual(new Set(unsentBefore));
      for (const limit of [1, 2, 3, 100]) {
        const { ids } = await allPages(list, limit, member);
        expect(ids, `${list} limit ${limit}`).toEqual(whole);
        expect(new Set(ids).size).toBe(ids.length);
      }
    }
  });

  it('refuse a cursor of another list, of another member or tampered with', async () => {
    const { cursors: adminCursors } = await allPages('get_admin_letters', 2, admin);
    const { cursors: receivedCursors } = await allPages('get_received_letters', 2, reader);
    const decoded = JSON.parse(Buffer.from(receivedCursors[0]!, 'base64url').toString());
    const forged = (body: object) => Buffer.from(JSON.stringify(body)).toString('base64url');
    const refused: [string, TestMember][] = [
      [`${BASE}/get_received_letters/paged?cursor=${adminCursors[0]}`, admin],
      [`${BASE}/get_unsent_letters/paged?cursor=${adminCursors[0]}`, admin],
      [`${BASE}/get_admin_letters/paged?cursor=${receivedCursors[0]}`, reader],
      // Another member's own cursor for the same list.
      [`${BASE}/get_received_letters/paged?cursor=${receivedCursors[0]}`, stranger],
      [`${BASE}/get_admin_letters/paged?cursor=${adminCursors[0]}`, writer],
      [`${BASE}/get_received_letters/paged?cursor=not-json`, reader],
      [
        `${BASE}/get_received_letters/paged?cursor=${forged({ ...decoded, key: ["'; drop table x", decoded.key[1]] })}`,
        reader,
      ],
      [
        `${BASE}/get_received_letters/paged?cursor=${forged({ ...decoded, key: decoded.key.slice(1) })}`,
        reader,
      ],
    ];
    for (const [url, member] of refused) {
      const response = await get(url, member);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code).toBe('cursor_invalid');
      expect(response.json().detail).toMatch(/[ぁ-んァ-ン]/);
    }
  });

  it('show another member none of the letters', async () => {
    for (const list of LISTS) {
      const page = await get(`${BASE}/${list}/paged`, stranger);
      expect(page.statusCode).toBe(200);
      expect(page.json()).toEqual({ items: [], nextCursor: null });
    }
    const signedOut = await t.request({ method: 'GET', url: `${BASE}/get_admin_letters/paged` });
    expect(signedOut.statusCode).toBe(401);
  });

  it('carry an ETag that names the page size and the cursor', async () => {
    const url = `${BASE}/get_received_letters/paged?limit=2`;
    const first = await get(url, reader);
    const cursor = first.json().nextCursor as string;
    const second = await get(`${url}&cursor=${cursor}`, reader);
    expect(first.headers.etag).not.toBe(second.headers.etag);
    const again = await t.request({
      method: 'GET',
      url: `${url}&cursor=${cursor}`,
      token: reader.token,
      headers: { 'if-none-match': String(second.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});
