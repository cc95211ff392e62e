import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../support/members';
import { createSecondInstance, createTestApp, type TestApp } from '../support/testApp';
import { jpegPhoto, upload } from './memorialSupport';

// The album and history answers carry an ETag made from the page's list version, and a
// client that holds it is answered 304. Every change goes through instance A; every read
// through instance B, a second application on the same database, revalidating the copy it
// holds, so a change the version missed would show as a stale copy.

let t: TestApp;
let other: FastifyInstance;
let owner: TestMember;
let stranger: TestMember;
beforeAll(async () => {
  t = await createTestApp();
  other = await createSecondInstance(t);
  owner = await createMember(t);
  stranger = await createMember(t);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

interface Photo {
  id: string;
  caption: string;
}
interface Entry {
  id: string;
  body: string;
}

async function publicPage(): Promise<string> {
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
      privacy: 'public',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().memorialPageId;
}

/** The copies a client holds, by URL: the ETag and the body it came with. */
const held = new Map<string, { etag: string; body: unknown }>();

/** A GET through the other instance, as the stranger (a public page), as a browser revalidates. */
async function readOther<T>(url: string): Promise<T> {
  const copy = held.get(url);
  const response = await other.inject({
    method: 'GET',
    url,
    headers: {
      authorization: `Bearer ${stranger.token}`,
      ...(copy ? { 'if-none-match': copy.etag } : {}),
    },
  });
  expect(response.headers['cache-control']).toBe('private, no-cache');
  if (response.statusCode === 304) {
    expect(copy).toBeDefined();
    expect(response.body).toBe('');
    return copy!.body as T;
  }
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = response.json() as T;
  held.set(url, { etag: String(response.headers.etag), body });
  return body;
}

async function change(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: object) {
  const response = await t.request({ method, url, token: owner.token, body });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response;
}

/** A public page with one photo in its album and one entry in its history, and the lists' URLs. */
async function publicPageWithAPhotoAndAnEntry() {
  const pageId = await publicPage();
  const albumUrl = `/v1/album/memorial_page_id/${pageId}/album`;
  const historyUrl = `/v1/history/get_histories_by_memorial_page_id/${pageId}`;
  await change('POST', albumUrl, {
    image_name: await upload(t, await jpegPhoto(40, 30), { token: owner.token }),
  });
  await change('POST', `/v1/history/memorial_page_id/${pageId}/history`, {
    occurred_on: '1950-01-01',
    body: '誕生',
  });
  return { pageId, albumUrl, historyUrl };
}

describe('album and history answers', () => {
  it('show every album change on the next read of another instance', async () => {
    const pageId = await publicPage();
    const albumUrl = `/v1/album/memorial_page_id/${pageId}/album`;
    const album = () => readOther<Photo[]>(albumUrl);
    const addPhoto = async (caption: string) =>
      (
        await change('POST', albumUrl, {
          image_name: await upload(t, await jpegPhoto(40, 30), { token: owner.token }),
          caption,
        })
      ).json() as Photo;

    expect(await album()).toEqual([]);
    const first = await addPhoto('一枚目');
    expect((await album()).map((photo) => photo.caption)).toEqual(['一枚目']);
    expect((await album()).map((photo) => photo.caption)).toEqual(['一枚目']);
    const second = await addPhoto('二枚目');
    expect((await album()).map((photo) => photo.caption)).toEqual(['一枚目', '二枚目']);

    await change('PATCH', `${albumUrl}/${first.id}`, { caption: '海にて' });
    expect((await album()).map((photo) => photo.caption)).toEqual(['海にて', '二枚目']);

    await change('PUT', `${albumUrl}/order`, { photo_ids: [second.id, first.id] });
    expect((await album()).map((photo) => photo.id)).toEqual([second.id, first.id]);

    await change('DELETE', `${albumUrl}/${second.id}`);
    expect((await album()).map((photo) => photo.id)).toEqual([first.id]);
  });

  it('show every history change on the next read of another instance', async () => {
    const pageId = await publicPage();
    const base = `/v1/history/memorial_page_id/${pageId}/history`;
    const history = () =>
      readOther<Entry[]>(`/v1/history/get_histories_by_memorial_page_id/${pageId}`);

    expect(await history()).toEqual([]);
    const born = (await change('POST', base, { occurred_on: '1950-01-01', body: '誕生' })).json();
    expect((await history()).map((entry) => entry.body)).toEqual(['誕生']);
    await change('POST', base, { occurred_on: '1972-06-01', body: '結婚' });
    expect((await history()).map((entry) => entry.body)).toEqual(['誕生', '結婚']);

    await change('PATCH', `${base}/${born.id}`, { body: '東京で誕生' });
    expect((await history()).map((entry) => entry.body)).toEqual(['東京で誕生', '結婚']);

    await change('DELETE', `${base}/${born.id}`);
    expect((await history()).map((entry) => entry.body)).toEqual(['結婚']);
  });

  it('still decide on every call who may see the list', async () => {
    const pageId = await publicPage();
    const albumUrl = `/v1/album/memorial_page_id/${pageId}/album`;
    await change('POST', albumUrl, {
      image_name: await upload(t, await jpegPhoto(40, 30), { token: owner.token }),
    });
    expect(await readOther<Photo[]>(albumUrl)).toHaveLength(1);

    await change('PATCH', `/v1/memorial_page/${pageId}`, { privacy: 'admins' });
    const hidden = await other.inject({
      method: 'GET',
      url: albumUrl,
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expect(hidden.statusCode).toBe(404);
    const anonymous = await other.inject({ method: 'GET', url: albumUrl });
    expect(anonymous.statusCode).toBe(401);
  });

  it('follow every privacy change, for both lists, in both directions', async () => {
    const { pageId, albumUrl, historyUrl } = await publicPageWithAPhotoAndAnEntry();
    const asStranger = (url: string) =>
      other.inject({ method: 'GET', url, headers: { authorization: `Bearer ${stranger.token}` } });
    // Kept by the other instance while public.
    for (const url of [albumUrl, historyUrl])
      expect(await readOther<unknown[]>(url)).toHaveLength(1);

    // Connections of an admin only: the stranger is none, and gets nothing kept.
    await change('PATCH', `/v1/memorial_page/${pageId}`, { privacy: 'connections' });
    for (const url of [albumUrl, historyUrl]) expect((await asStranger(url)).statusCode).toBe(404);
    // Signed-in members with the link: the stranger may read again, and reads the same lists.
    await change('PATCH', `/v1/memorial_page/${pageId}`, { privacy: 'link' });
    for (const url of [albumUrl, historyUrl])
      expect(await readOther<unknown[]>(url)).toHaveLength(1);
    for (const url of [albumUrl, historyUrl])
      expect((await other.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('give each item the fields the client reads, and no more', async () => {
    const pageId = await publicPage();
    const albumUrl = `/v1/album/memorial_page_id/${pageId}/album`;
    const added = await change('POST', albumUrl, {
      image_name: await upload(t, await jpegPhoto(40, 30), { token: owner.token }),
      caption: '海',
    });
    // The single-photo answer still carries the page and the time it was made.
    expect(added.json()).toHaveProperty('createdAt');
    const [photo] = await readOther<Record<string, unknown>[]>(albumUrl);
    expect(Object.keys(photo!).sort()).toEqual(
      [
        'id',
        'imageName',
        'url',
        'thumbnailUrl',
        'caption',
        'takenOn',
        'position',
        'width',
        'height',
        'thumbnailBytes',
      ].sort(),
    );
    await change('POST', `/v1/history/memorial_page_id/${pageId}/history`, {
      occurred_on: '1950-01-01',
      body: '誕生',
    });
    const [entry] = await readOther<Record<string, unknown>[]>(
      `/v1/history/get_histories_by_memorial_page_id/${pageId}`,
    );
    expect(entry).toEqual({
      id: expect.any(String),
      occurredOn: '1950-01-01',
      body: '誕生',
      imageName: null,
      url: null,
      thumbnailUrl: null,
    });
  });

  it("sign each listed entry's own image, with entries without one between them", async () => {
    const pageId = await publicPage();
    const historyUrl = `/v1/history/memorial_page_id/${pageId}/history`;
    const photos: string[] = [];
    for (const [year, withPhoto] of [
      [1950, true],
      [1960, false],
      [1970, true],
    ] as const) {
      const imageName = withPhoto
        ? await upload(t, await jpegPhoto(40, 30), { token: owner.token })
        : undefined;
      if (imageName) photos.push(imageName);
      await change('POST', historyUrl, {
        occurred_on: `${year}-01-01`,
        body: `${year}`,
        ...(imageName ? { image_name: imageName } : {}),
      });
    }
    const entries = await readOther<{ url: string | null; thumbnailUrl: string | null }[]>(
      `/v1/history/get_histories_by_memorial_page_id/${pageId}`,
    );
    expect(entries.map((entry) => entry.url)).toEqual([
      expect.stringContaining(photos[0]!),
      null,
      expect.stringContaining(photos[1]!),
    ]);
    expect(entries[1]!.thumbnailUrl).toBeNull();
    expect(entries[0]!.thumbnailUrl).not.toEqual(entries[2]!.thumbnailUrl);
    expect(entries[0]!.thumbnailUrl).not.toBeNull();
  });

  it('answer 304 to the ETag of an unchanged list, and the list once it changed', async () => {
    const { pageId, albumUrl, historyUrl } = await publicPageWithAPhotoAndAnEntry();
    const read = (url: string, etag?: string) =>
      other.inject({
        method: 'GET',
        url,
        headers: {
          authorization: `Bearer ${stranger.token}`,
          ...(etag ? { 'if-none-match': etag } : {}),
        },
      });
    for (const url of [albumUrl, historyUrl]) {
      const first = await read(url);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[^"]+"$/);
      expect((await read(url, etag)).statusCode).toBe(304);
      expect((await read(url, '"something else"')).statusCode).toBe(200);
    }
    const albumEtag = String((await read(albumUrl)).headers.etag);
    await change('POST', `/v1/history/memorial_page_id/${pageId}/history`, {
      occurred_on: '1960-01-01',
      body: '入学',
    });
    const changed = await read(albumUrl, albumEtag);
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(albumEtag);
    // The signed URLs in a held copy are renewed: a later window is a new answer.
    t.clock.advance(6 * 60 * 1000);
    const later = await read(albumUrl, String(changed.headers.etag));
    expect(later.statusCode).toBe(200);
  });

  it('are sent gzip-compressed to a client that accepts gzip, and plain to any other', async () => {
    const pageId = await publicPage();
    for (let year = 1950; year < 1970; year += 1) {
      await change('POST', `/v1/history/memorial_page_id/${pageId}/history`, {
        occurred_on: `${year}-01-01`,
        body: `${year}年の出来事`,
      });
    }
    const read = (acceptEncoding?: string) =>
      other.inject({
        method: 'GET',
        url: `/v1/history/get_histories_by_memorial_page_id/${pageId}`,
        headers: {
          authorization: `Bearer ${stranger.token}`,
          ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        },
      });
    const plain = await read();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body)).toHaveLength(20);
    const compressed = await read('gzip, deflate, br, zstd');
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers.vary).toContain('accept-encoding');
    expect(compressed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(gunzipSync(compressed.rawPayload).toString())).toEqual(
      JSON.parse(plain.body),
    );
  });

  it('decide apart each caller of reads that arrive together', async () => {
    const pageId = await publicPage();
    const albumUrl = `/v1/album/memorial_page_id/${pageId}/album`;
    await change('POST', albumUrl, {
      image_name: await upload(t, await jpegPhoto(40, 30), { token: owner.token }),
    });
    await change('PATCH', `/v1/memorial_page/${pageId}`, { privacy: 'admins' });
    const missing = '00000000-0000-4000-8000-000000000000';
    // Sent at once: the access reads of one turn are answered by one query (access.ts).
    const answers = await Promise.all([
      other.inject({
        method: 'GET',
        url: albumUrl,
        headers: { authorization: `Bearer ${owner.token}` },
      }),
      other.inject({
        method: 'GET',
        url: `/v1/album/memorial_page_id/${pageId.toUpperCase()}/album`,
        headers: { authorization: `Bearer ${owner.token}` },
      }),
      other.inject({
        method: 'GET',
        url: albumUrl,
        headers: { authorization: `Bearer ${stranger.token}` },
      }),
      other.inject({ method: 'GET', url: albumUrl }),
      other.inject({
        method: 'GET',
        url: `/v1/album/memorial_page_id/${missing}/album`,
        headers: { authorization: `Bearer ${owner.token}` },
      }),
      other.inject({
        method: 'GET',
        url: `/v1/memorial_page/get_memorial_page_admin/${pageId}`,
        headers: { authorization: `Bearer ${owner.token}` },
      }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 404, 401, 404, 200]);
    expect(answers[0]!.json()).toHaveLength(1);
    expect(answers[1]!.json()).toEqual(answers[0]!.json());
    expect(answers[5]!.json().map((admin: { userId: string }) => admin.userId)).toEqual([owner.id]);
  });
});
