import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { jpegPhoto, upload } from './memorialSupport';

// The paged album and history: read a page at a time, they give exactly the unpaged list, in
// its order; a cursor names its list and page, so one of another list or page is refused.

let t: TestApp;
let owner: TestMember;
let stranger: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createMember(t);
  stranger = await createMember(t);
});
afterAll(async () => {
  await t.close();
});

async function page(privacy: 'public' | 'admins'): Promise<string> {
  const created = await t.request({
    method: 'POST',
    url: '/v1/memorial_page',
    token: owner.token,
    body: {
      type: 'other',
      last_name: '佐藤',
      first_name: '一郎',
      last_name_kana: 'さとう',
      first_name_kana: 'いちろう',
      privacy,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().memorialPageId;
}

/** A GET as the owner, as another member, or signed out (an empty token). */
async function get(url: string, token = owner.token) {
  return t.request({ method: 'GET', url, ...(token ? { token } : {}) });
}

/** Every item of a paged list, read `limit` at a time. */
async function allPages(url: string, limit: number, token?: string) {
  const items: { id: string }[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await get(
      `${url}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      token,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { items: { id: string }[]; nextCursor: string | null };
    expect(body.items.length).toBeLessThanOrEqual(limit);
    items.push(...body.items);
    cursor = body.nextCursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return { items, cursors };
}

let pageId: string;
let albumUrl: string;
let historyUrl: string;
beforeAll(async () => {
  pageId = await page('public');
  albumUrl = `/v1/album/memorial_page_id/${pageId}/album`;
  historyUrl = `/v1/history/get_histories_by_memorial_page_id/${pageId}`;
  const photo = await jpegPhoto(40, 30);
  for (let index = 0; index < 5; index += 1) {
    const added = await t.request({
      method: 'POST',
      url: albumUrl,
      token: owner.token,
      body: { image_name: await upload(t, photo, { token: owner.token }), caption: `${index}` },
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  // Two entries share a day, so the order past the date is the tiebreak's.
  for (const occurred_on of [
    '1990-01-01',
    '1950-01-01',
    '1990-01-01',
    '1970-06-30',
    '1950-01-01',
  ]) {
    const added = await t.request({
      method: 'POST',
      url: `/v1/history/memorial_page_id/${pageId}/history`,
      token: owner.token,
      body: { occurred_on, body: occurred_on },
    });
    expect(added.statusCode, added.body).toBe(201);
  }
});

describe('paged lists', () => {
  it('give the album and the history in the order of the unpaged lists, at any page size', async () => {
    const album = (await get(albumUrl)).json() as { id: string }[];
    const history = (await get(historyUrl)).json() as { id: string }[];
    expect(album).toHaveLength(5);
    expect(history).toHaveLength(5);
    for (const limit of [1, 2, 5, 100]) {
      const pagedAlbum = await allPages(`${albumUrl}/paged`, limit, stranger.token);
      expect(pagedAlbum.items.map((item) => item.id)).toEqual(album.map((item) => item.id));
      const pagedHistory = await allPages(`${historyUrl}/paged`, limit);
      expect(pagedHistory.items.map((item) => item.id)).toEqual(history.map((item) => item.id));
    }
  });

  it('answer 24 items by default and refuse a limit outside 1 to 100', async () => {
    const first = await get(`${albumUrl}/paged`);
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toHaveLength(5);
    expect(first.json().nextCursor).toBeNull();
    for (const limit of ['0', '101', 'abc', '2.5']) {
      expect((await get(`${albumUrl}/paged?limit=${limit}`)).statusCode, limit).toBe(422);
    }
  });

  it('refuse a cursor of another list, of another page or tampered with', async () => {
    const { cursors: albumCursors } = await allPages(`${albumUrl}/paged`, 2);
    const { cursors: historyCursors } = await allPages(`${historyUrl}/paged`, 2);
    const otherPage = await page('public');
    const decoded = JSON.parse(Buffer.from(albumCursors[0]!, 'base64url').toString());
    const forged = (body: object) => Buffer.from(JSON.stringify(body)).toString('base64url');
    const refused = [
      `${albumUrl}/paged?cursor=${historyCursors[0]}`,
      `${historyUrl}/paged?cursor=${albumCursors[0]}`,
      `/v1/album/memorial_page_id/${otherPage}/album/paged?cursor=${albumCursors[0]}`,
      `${albumUrl}/paged?cursor=not-json`,
      `${albumUrl}/paged?cursor=%22%0A`,
      `${albumUrl}/paged?cursor=${forged({ ...decoded, key: ['1; DROP TABLE x', ...decoded.key.slice(1)] })}`,
      `${albumUrl}/paged?cursor=${forged({ ...decoded, key: decoded.key.slice(1) })}`,
      `${albumUrl}/paged?cursor=${forged([1, 2])}`,
    ];
    for (const url of refused) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code).toBe('cursor_invalid');
      expect(response.json().detail).toMatch(/[ぁ-んァ-ン]/);
    }
  });

  it('let only those who may see the page read it', async () => {
    const closed = await page('admins');
    for (const url of [
      `/v1/album/memorial_page_id/${closed}/album/paged`,
      `/v1/history/get_histories_by_memorial_page_id/${closed}/paged`,
    ]) {
      expect((await get(url)).statusCode).toBe(200);
      const unpaged = await get(url.replace(/\/paged$/, ''), stranger.token);
      expect((await get(url, stranger.token)).statusCode).toBe(unpaged.statusCode);
      expect(unpaged.statusCode).toBeGreaterThanOrEqual(400);
      const anonymous = await get(url.replace(/\/paged$/, ''), '');
      expect((await get(url, '')).statusCode).toBe(anonymous.statusCode);
      expect(anonymous.statusCode).toBeGreaterThanOrEqual(400);
    }
  });

  it('carry an ETag that names the page size and the cursor', async () => {
    const first = await get(`${albumUrl}/paged?limit=2`);
    const cursor = first.json().nextCursor as string;
    const second = await get(`${albumUrl}/paged?limit=2&cursor=${cursor}`);
    const other = await get(`${albumUrl}/paged?limit=3`);
    const tags = [first, second, other].map((response) => response.headers.etag);
    expect(new Set(tags).size).toBe(3);
    const again = await t.request({
      method: 'GET',
      url: `${albumUrl}/paged?limit=2&cursor=${cursor}`,
      token: owner.token,
      headers: { 'if-none-match': String(second.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});
