/**
 * The keepsake of a memorial page (docs/keepsake.md), on the database the suite runs on: only
 * the page's admins ask for it, a page for a living person has none, the job builds it beside
 * the members' archives, every admin sees who took it, and its link works once for the admin
 * who asked. The archive is opened with yauzl and its book read as the family would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorialPageMembers } from '../../server/db/schema';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { runDataExports } from '../../server/domain/dataExport/requests';
import { dataExportDepsOf } from '../../server/areaDeps';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { unzip } from '../support/unzip';
import { jpegPhoto, upload } from './memorialSupport';

let t: TestApp;
let admin: TestMember;
let coAdmin: TestMember;
let friend: TestMember;
let stranger: TestMember;
let petPageId: string;
const photos = new Map<string, Buffer>();

async function call(
  member: TestMember,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: object,
) {
  return t.request({ method, url, token: member.token, ...(body ? { body } : {}) });
}

async function ok(member: TestMember, method: 'POST' | 'PATCH', url: string, body: object = {}) {
  const response = await call(member, method, url, body);
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as Record<string, unknown>;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t, { lastName: '佐藤', firstName: '花子' });
  coAdmin = await createMember(t, { lastName: '佐藤', firstName: '次郎' });
  friend = await createMember(t, { lastName: '鈴木', firstName: '一郎' });
  stranger = await createMember(t);
  await connectMembers(t, admin, friend);

  const page = await ok(admin, 'POST', '/v1/memorial_page', {
    type: 'pet',
    first_name: 'ポチ',
    first_name_kana: 'ぽち',
    animal_kind: '柴犬',
    birth_date: '2012-04-01',
    death_date: '2026-03-01',
    privacy: 'public',
  });
  petPageId = String(page.memorialPageId);
  await t.ctx.database.db
    .insert(memorialPageMembers)
    .values({ memorialPageId: petPageId, userId: coAdmin.id, role: 'admin' });
  for (const [index, width] of [64, 72].entries()) {
    const bytes = await jpegPhoto(width, 48);
    const imageName = await upload(t, bytes, { token: admin.token });
    await ok(admin, 'POST', `/v1/album/memorial_page_id/${petPageId}/album`, {
      image_name: imageName,
      caption: `散歩の写真${index + 1}`,
    });
    photos.set(imageName, bytes);
  }
  await ok(admin, 'POST', `/v1/history/memorial_page_id/${petPageId}/history`, {
    occurred_on: '2012-05-05',
    body: 'はじめてのおさんぽ',
    image_name: null,
  });
  const kept = await ok(friend, 'POST', `/v1/memorial_page/${petPageId}/condolences`, {
    body: 'ポチ、ありがとう。',
  });
  await ok(admin, 'PATCH', `/v1/memorial_page/${petPageId}/condolences/${String(kept.id)}`, {
    status: 'approved',
  });
  await ok(stranger, 'POST', `/v1/memorial_page/${petPageId}/condolences`, {
    body: 'まだ承認されていない記帳',
  });
  await ok(friend, 'POST', `/v1/memorial_page/${petPageId}/flowers`);
});
afterAll(async () => {
  await t.close();
});

const keepsakes = (id: string) => `/v1/memorial_page/${id}/keepsakes`;

describe('the keepsake of a memorial page', () => {
  it('is only for the page’s admins', async () => {
    expect((await call(friend, 'POST', keepsakes(petPageId))).statusCode).toBe(403);
    expect((await call(friend, 'GET', keepsakes(petPageId))).statusCode).toBe(403);
    expect((await call(stranger, 'GET', keepsakes(admin.memorialPageId))).statusCode).toBe(404);
    const signedOut = await t.request({ method: 'POST', url: keepsakes(petPageId) });
    expect(signedOut.statusCode).toBe(401);
  });

  it('is not made of a living member’s own page', async () => {
    const listed = await call(admin, 'GET', keepsakes(admin.memorialPageId));
    expect(listed.json()).toEqual({ available: false, keepsakes: [] });
    const asked = await call(admin, 'POST', keepsakes(admin.memorialPageId));
    expect(asked.statusCode).toBe(409);
    expect(asked.json().code).toBe('keepsake_not_yet');
  });

  it('is built by the job, recorded for every admin, and downloaded once by who asked', async () => {
    const asked = await call(admin, 'POST', keepsakes(petPageId));
    expect(asked.statusCode, asked.body).toBe(202);
    const keepsakeId = asked.json().id as string;
    expect((await call(admin, 'POST', keepsakes(petPageId))).json().code).toBe(
      'data_export_in_progress',
    );
    expect((await runDataExports(dataExportDepsOf(t.ctx))).built).toBe(1);

    // Every admin sees who took the page away; the member's own archive list does not hold it.
    const record = (await call(coAdmin, 'GET', keepsakes(petPageId))).json();
    expect(record.available).toBe(true);
    expect(record.keepsakes).toHaveLength(1);
    expect(record.keepsakes[0]).toMatchObject({
      id: keepsakeId,
      status: 'ready',
      requestedBy: { userId: admin.id, lastName: '佐藤', firstName: '花子' },
    });
    expect((await call(admin, 'GET', '/v1/data_exports')).json().exports).toEqual([]);
    expect(
      (await call(coAdmin, 'POST', `/v1/data_exports/${keepsakeId}/download_link`)).statusCode,
    ).toBe(404);

    admin.token = await issueAccessToken(admin.id, t.config.authSecret, t.clock);
    const link = await call(admin, 'POST', `/v1/data_exports/${keepsakeId}/download_link`);
    expect(link.statusCode, link.body).toBe(201);
    const target = new URL(link.json().url as string);
    const download = () => t.app.inject({ method: 'GET', url: target.pathname + target.search });
    const archive = await download();
    expect(archive.statusCode).toBe(200);
    expect(archive.headers['content-disposition']).toMatch(
      /filename="shinobu-keepsake-\d{8}\.zip"/,
    );
    expect((await download()).statusCode).toBe(400);

    const files = await unzip(archive.rawPayload);
    const album = JSON.parse(files.get('album.json')!.body.toString('utf8')) as { file: string }[];
    expect(album).toHaveLength(2);
    for (const [imageName, bytes] of photos) {
      const file = album.find((photo) =>
        photo.file.endsWith(imageName.slice(imageName.indexOf('/') + 1)),
      );
      expect(files.get(file!.file)!.body.equals(bytes)).toBe(true);
    }
    for (const name of [
      'page.json',
      'history.json',
      'condolences.json',
      'flowers.json',
      'README.txt',
    ]) {
      expect(files.has(name), name).toBe(true);
    }
    const book = files.get('book.html')!.body.toString('utf8');
    expect(book).toContain('<h1>ポチ</h1>');
    expect(book).toContain('四十九日');
    expect(book).toContain('2026年4月18日');
    expect(book).toContain('はじめてのおさんぽ');
    expect(book).toContain('散歩の写真1');
    expect(book).toContain('ポチ、ありがとう。');
    expect(book).not.toContain('まだ承認されていない記帳');
    expect(book).toContain(`src="${album[0]!.file}"`);
  });
});
