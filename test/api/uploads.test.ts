/**
 * Uploads as an attacker would try them, against the real server: what may be stored, how
 * it is served, who may get a URL for it, who may delete it, and the limits without an
 * account.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumPhotos, uploads } from '../../server/db/schema';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { timecapsuleDepsOf } from '../../server/areaDeps';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { sweepUnusedUploads, UNCLAIMED_UPLOAD_TTL_MS } from '../../server/domain/uploads/uploads';
import {
  SIGNED_URL_CALLS_PER_CLIENT,
  SIGNED_URL_CALLS_PER_MEMBER,
} from '../../server/routes/memorial/signedUrl';
import { MAX_ANONYMOUS_UPLOAD_BYTES } from '../../server/storage/objectStore';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { registrationBody } from './accountsSupport';
import { fetchSigned, jpegPhoto, putTo, signedPut, tryUpload, upload } from './memorialSupport';

let t: TestApp;
let owner: TestMember;
let friend: TestMember;
let stranger: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createMember(t);
  friend = await createMember(t);
  stranger = await createMember(t);
  await connectMembers(t, owner, friend);
});
afterAll(async () => {
  await t.close();
});

async function renewTokens(): Promise<void> {
  for (const member of [owner, friend, stranger]) {
    member.token = await issueAccessToken(member.id, t.config.authSecret, t.clock);
  }
}

const uploadRow = async (objectName: string) =>
  (await t.ctx.database.db.select().from(uploads).where(eq(uploads.objectName, objectName)))[0];

async function createPage(member: TestMember, privacy: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/v1/memorial_page',
    token: member.token,
    body: {
      type: 'pet',
      first_name: 'ポチ',
      first_name_kana: 'ぽち',
      animal_kind: '柴犬',
      privacy,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().memorialPageId;
}

async function addToAlbum(member: TestMember, pageId: string, imageName: string) {
  return t.request({
    method: 'POST',
    url: `/v1/album/memorial_page_id/${pageId}/album`,
    token: member.token,
    body: { image_name: imageName, caption: '' },
  });
}

/** GET /v1/signed_url?method=GET for the object, as `member` (undefined: signed out). */
function signedGet(objectName: string, member?: TestMember) {
  return t.request({
    method: 'GET',
    url: `/v1/signed_url?method=GET&image_name=${encodeURIComponent(objectName)}`,
    ...(member ? { token: member.token } : {}),
  });
}

const tinyPng = () =>
  sharp({ create: { width: 24, height: 16, channels: 3, background: '#88aacc' } })
    .png()
    .toBuffer();

describe('what a PUT may store', () => {
  it.each([
    [
      'an HTML page',
      '<!doctype html><html><script>alert(document.cookie)</script></html>',
      'x.html',
      'text/html',
    ],
    [
      'a script',
      'fetch("/api/auth/session").then((r) => r.text()).then(alert);',
      'x.js',
      'text/javascript',
    ],
    [
      'an SVG with a script',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'x.svg',
      'image/svg+xml',
    ],
    [
      'HTML named and typed as a photo',
      '<html><body onload="alert(1)"></body></html>',
      'photo.jpg',
      'image/jpeg',
    ],
  ])('refuses %s with 415 and keeps nothing', async (_what, text, fileName, contentType) => {
    const { imageName, put } = await tryUpload(t, Buffer.from(text), {
      token: owner.token,
      fileName,
      contentType,
    });
    expect(put.statusCode).toBe(415);
    expect(put.json()).toMatchObject({ code: 'not_an_image', detail: expect.any(String) });
    expect(put.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(await t.ctx.store.get(imageName)).toBeUndefined();
    expect(await uploadRow(imageName)).toBeUndefined();
    const pageId = await createPage(owner, 'public');
    expect((await addToAlbum(owner, pageId, imageName)).json().errors).toEqual([
      { field: 'image_name', code: 'upload_missing' },
    ]);
  });

  it('refuses HEIC with 415 (the image library as installed cannot decode it)', async () => {
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from('ftypheic'),
      Buffer.alloc(64),
    ]);
    const { imageName, put } = await tryUpload(t, heic, {
      token: owner.token,
      fileName: 'IMG_0001.HEIC',
    });
    expect(put.statusCode).toBe(415);
    expect(put.json().code).toBe('image_heic_unsupported');
    expect(await t.ctx.store.get(imageName)).toBeUndefined();
  });

  it('serves a JPEG carrying a script only as a JPEG, inert under its own CSP', async () => {
    const jpeg = await jpegPhoto(32, 32);
    const polyglot = Buffer.concat([jpeg, Buffer.from('<html><script>alert(1)</script></html>')]);
    const imageName = await upload(t, polyglot, {
      token: owner.token,
      fileName: 'page.html',
      contentType: 'text/html',
    });
    expect(imageName).toMatch(/\.jpg$/);
    const pageId = await createPage(owner, 'public');
    const added = await addToAlbum(owner, pageId, imageName);
    expect(added.statusCode, added.body).toBe(201);
    const served = await fetchSigned(t, added.json().url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toBe('inline');
  });

  it('stores a PNG named as a JPEG as a JPEG: the name and the served type always agree', async () => {
    const imageName = await upload(t, await tinyPng(), {
      token: owner.token,
      fileName: 'holiday.jpg',
      contentType: 'application/x-msdownload',
    });
    const stored = await t.ctx.store.get(imageName);
    expect((await sharp(stored!.body).metadata()).format).toBe('jpeg');
    const pageId = await createPage(owner, 'public');
    const served = await fetchSigned(t, (await addToAlbum(owner, pageId, imageName)).json().url);
    expect(served.headers['content-type']).toBe('image/jpeg');
  });

  it('serves bytes stored before uploads were checked only when they are an image', async () => {
    const { imageName } = await signedPut(t, owner.token, 'old.png');
    await t.ctx.store.put(imageName, Buffer.from('<script>alert(1)</script>'), 'text/html');
    const read = await fetchSigned(t, await t.ctx.store.signedUrl(imageName, 'GET'));
    expect(read.statusCode).toBe(404);
    expect(read.headers['content-type']).toMatch(/^application\/json/);
    expect(read.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });
});

describe('a PUT URL', () => {
  it('works once: the same URL is refused after its upload, and after a refused one', async () => {
    const { url, imageName } = await signedPut(t, owner.token, 'a.jpg');
    const photo = await jpegPhoto(40, 40);
    expect((await putTo(t, url, photo)).statusCode).toBe(204);
    const again = await putTo(t, url, Buffer.from('<html>replaced</html>'), 'text/html');
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ code: 'signed_url_used', detail: expect.any(String) });
    expect((await t.ctx.store.get(imageName))!.body.equals(photo)).toBe(true);

    const refused = await signedPut(t, owner.token, 'b.jpg');
    expect((await putTo(t, refused.url, Buffer.from('not an image'))).statusCode).toBe(415);
    expect((await putTo(t, refused.url, photo)).statusCode).toBe(403);
  });
});

describe('signed /files URLs', () => {
  it('are bound to their method, their name and their expiry', async () => {
    const name = await upload(t, await jpegPhoto(20, 20), { token: owner.token });
    const url = new URL(await t.ctx.store.signedUrl(name, 'GET'));
    const asPut = await putTo(
      t,
      url.href.replace('method=GET', 'method=PUT'),
      await jpegPhoto(20, 20),
    );
    expect(asPut.statusCode).toBe(403);
    const otherName = await fetchSigned(t, url.href.replace('/uploads/', '/thumbs/'));
    expect(otherName.json()).toMatchObject({ code: 'signed_url_invalid' });
    t.clock.advance(16 * 60 * 1000);
    await renewTokens();
    const expired = await fetchSigned(t, url.href);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({
      code: 'signed_url_expired',
      detail: expect.any(String),
    });
  });
});

describe('GET URLs', () => {
  it('are signed for a public page’s photos for anyone, a private page’s only for its readers', async () => {
    const publicPage = await createPage(owner, 'public');
    const publicPhoto = await upload(t, await jpegPhoto(30, 30), { token: owner.token });
    expect((await addToAlbum(owner, publicPage, publicPhoto)).statusCode).toBe(201);
    const anonymous = await signedGet(publicPhoto);
    expect(anonymous.statusCode).toBe(200);
    expect((await fetchSigned(t, anonymous.json().url)).statusCode).toBe(200);

    const privatePage = await createPage(owner, 'connections');
    const privatePhoto = await upload(t, await jpegPhoto(30, 30), { token: owner.token });
    const added = (await addToAlbum(owner, privatePage, privatePhoto)).json();
    const thumbnailName = (await uploadRow(privatePhoto))!.thumbnailName!;
    for (const name of [privatePhoto, thumbnailName]) {
      expect((await signedGet(name, stranger)).statusCode).toBe(404);
      expect((await signedGet(name)).statusCode).toBe(404);
      expect((await signedGet(name, friend)).statusCode).toBe(200);
      expect((await signedGet(name, owner)).statusCode).toBe(200);
    }
    expect(added.url).toContain('/files/');
  });

  it('are signed for a letter’s photos only for its readers', async () => {
    const photo = await upload(t, await jpegPhoto(30, 30), { token: owner.token });
    const letter = await t.request({
      method: 'POST',
      url: '/v1/time_capsule_letter',
      token: owner.token,
      body: {
        title: '写真',
        body: '本文',
        recipients: [{ kind: 'member', user_id: friend.id }],
        admin_user_ids: [],
        delivery: { rule: 'date', send_at: '2030-01-01T09:00' },
        photo_names: [photo],
      },
    });
    expect(letter.statusCode, letter.body).toBe(201);
    expect((await signedGet(photo, owner)).statusCode).toBe(200);
    expect((await signedGet(photo, stranger)).statusCode).toBe(404);
    // The recipient reads it only once it is delivered.
    expect((await signedGet(photo, friend)).statusCode).toBe(404);
    t.clock.set(new Date('2030-01-01T00:00:01Z'));
    await renewTokens();
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    expect((await signedGet(photo, friend)).statusCode).toBe(200);
    expect((await signedGet(photo, stranger)).statusCode).toBe(404);
  });

  it('are signed for a member’s icon for signed-in members only, in the lists as on request', async () => {
    const icon = await upload(t, await jpegPhoto(40, 40), { token: owner.token });
    const set = await t.request({
      method: 'PATCH',
      url: '/v1/mypage/profile',
      token: owner.token,
      body: { icon_name: icon },
    });
    expect(set.statusCode, set.body).toBe(200);
    const publicPage = await createPage(owner, 'public');
    const admins = (member?: TestMember) =>
      t.request({
        method: 'GET',
        url: `/v1/memorial_page/get_memorial_page_admin/${publicPage}`,
        ...(member ? { token: member.token } : {}),
      });

    const toVisitor = await admins();
    expect(toVisitor.statusCode).toBe(200);
    expect(toVisitor.json()).toEqual([
      expect.objectContaining({ userId: owner.id, iconUrl: null }),
    ]);
    expect(toVisitor.body).not.toContain(icon.replace(/\.jpg$/, ''));
    expect((await signedGet(icon)).statusCode).toBe(404);

    const toStranger = (await admins(stranger)).json() as { iconUrl: string | null }[];
    expect(toStranger[0]!.iconUrl).toContain(icon);
    expect((await fetchSigned(t, toStranger[0]!.iconUrl!)).statusCode).toBe(200);
    expect((await signedGet(icon, stranger)).statusCode).toBe(200);
  });

  it('are signed for an upload nothing uses yet only for its owner', async () => {
    const name = await upload(t, await jpegPhoto(20, 20), { token: owner.token });
    expect((await signedGet(name, owner)).statusCode).toBe(200);
    expect((await signedGet(name, stranger)).statusCode).toBe(404);
    expect((await signedGet('uploads/AAAAAAAAAAAAAAAAAAAAAA.jpg', owner)).statusCode).toBe(404);
  });
});

describe('who may use and delete an object', () => {
  it('another member’s icon cannot be taken into one’s album, nor deleted through it', async () => {
    const icon = await upload(t, await jpegPhoto(64, 64), { token: owner.token });
    const set = await t.request({
      method: 'PATCH',
      url: '/v1/mypage/profile',
      token: owner.token,
      body: { icon_name: icon },
    });
    expect(set.statusCode, set.body).toBe(200);

    const strangersPage = await createPage(stranger, 'admins');
    const taken = await addToAlbum(stranger, strangersPage, icon);
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual([{ field: 'image_name', code: 'upload_missing' }]);
    const asProfile = await t.request({
      method: 'PATCH',
      url: '/v1/mypage/profile',
      token: stranger.token,
      body: { icon_name: icon },
    });
    expect(asProfile.json().errors).toEqual([{ field: 'icon_name', code: 'upload_missing' }]);

    // Even an album row that names the icon (as rows written before uploads were recorded
    // may) deletes nothing of it when it goes.
    const [row] = await t.ctx.database.db
      .insert(albumPhotos)
      .values({
        memorialPageId: strangersPage,
        imageName: icon,
        thumbnailName: 'thumbs/AAAAAAAAAAAAAAAAAAAAAA.webp',
        contentType: 'image/jpeg',
        byteSize: 1,
        thumbnailBytes: 1,
        width: 1,
        height: 1,
        position: 0,
        createdBy: stranger.id,
      })
      .returning();
    const removed = await t.request({
      method: 'DELETE',
      url: `/v1/album/memorial_page_id/${strangersPage}/album/${row!.id}`,
      token: stranger.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(await t.ctx.store.get(icon)).toBeDefined();
    expect(await uploadRow(icon)).toMatchObject({ useKind: 'member_icon', useId: owner.id });
  });

  it('a letter photo of one member cannot be used by another', async () => {
    const photo = await upload(t, await jpegPhoto(20, 20), { token: owner.token });
    const pageId = await createPage(stranger, 'public');
    expect((await addToAlbum(stranger, pageId, photo)).json().errors).toEqual([
      { field: 'image_name', code: 'upload_missing' },
    ]);
  });

  it('the owner’s own removal deletes the files', async () => {
    const pageId = await createPage(owner, 'public');
    const photo = await upload(t, await jpegPhoto(20, 20), { token: owner.token });
    const added = (await addToAlbum(owner, pageId, photo)).json();
    const thumbnailName = (await uploadRow(photo))!.thumbnailName!;
    await t.request({
      method: 'DELETE',
      url: `/v1/album/memorial_page_id/${pageId}/album/${added.id}`,
      token: owner.token,
    });
    expect(await t.ctx.store.get(photo)).toBeUndefined();
    expect(await t.ctx.store.get(thumbnailName)).toBeUndefined();
    expect(await uploadRow(photo)).toBeUndefined();
  });
});

describe('the sweep of unclaimed uploads', () => {
  it('deletes what nothing claimed within 24 hours, and only that', async () => {
    const deps = { db: t.ctx.database.db, store: t.ctx.store, clock: t.clock };
    await sweepUnusedUploads(deps);
    const pageId = await createPage(owner, 'public');
    const claimed = await upload(t, await jpegPhoto(20, 20), { token: owner.token });
    expect((await addToAlbum(owner, pageId, claimed)).statusCode).toBe(201);
    const unclaimed = await upload(t, await jpegPhoto(20, 20), { token: owner.token });
    const unclaimedThumbnail = (await uploadRow(unclaimed))!.thumbnailName!;
    const neverSent = (await signedPut(t, owner.token)).imageName;

    t.clock.advance(UNCLAIMED_UPLOAD_TTL_MS - 1000);
    await renewTokens();
    const younger = await upload(t, await jpegPhoto(20, 20), { token: owner.token });
    expect(await sweepUnusedUploads(deps)).toBe(0);

    t.clock.advance(2000);
    // The two of this test, and what earlier tests left unclaimed.
    expect(await sweepUnusedUploads(deps)).toBeGreaterThanOrEqual(2);
    expect(await t.ctx.store.get(unclaimed)).toBeUndefined();
    expect(await t.ctx.store.get(unclaimedThumbnail)).toBeUndefined();
    expect(await uploadRow(unclaimed)).toBeUndefined();
    expect(await uploadRow(neverSent)).toBeUndefined();
    expect(await t.ctx.store.get(claimed)).toBeDefined();
    expect(await t.ctx.store.get(younger)).toBeDefined();
  });
});

describe('the sweep of uploads whose use is gone', () => {
  it('deletes the files of photos that went with their page', async () => {
    const deps = { db: t.ctx.database.db, store: t.ctx.store, clock: t.clock };
    const pageId = await createPage(owner, 'public');
    const photo = await upload(t, await jpegPhoto(20, 20), { token: owner.token });
    expect((await addToAlbum(owner, pageId, photo)).statusCode).toBe(201);
    const kept = await upload(t, await jpegPhoto(20, 20), { token: owner.token });
    expect((await addToAlbum(owner, pageId, kept)).statusCode).toBe(201);
    await sweepUnusedUploads(deps);
    expect(await t.ctx.store.get(photo)).toBeDefined();
    // The page goes as an account deletion takes it, its album with it (ON DELETE CASCADE).
    await t.ctx.database.db.delete(albumPhotos).where(eq(albumPhotos.imageName, photo));
    expect(await sweepUnusedUploads(deps)).toBe(1);
    expect(await t.ctx.store.get(photo)).toBeUndefined();
    expect(await uploadRow(photo)).toBeUndefined();
    expect(await t.ctx.store.get(kept)).toBeDefined();
  });
});

describe('uploads without an account', () => {
  it('become the icon of the account registered with them, and of no other', async () => {
    const icon = await upload(t, await jpegPhoto(48, 48), { token: undefined });
    const register = (email: string) =>
      t.request({
        method: 'POST',
        url: '/v1/user',
        body: registrationBody({ email, user_icon_url: icon }),
      });
    const first = await register('icon-1@example.jp');
    expect(first.statusCode, first.body).toBeLessThan(300);
    const row = await uploadRow(icon);
    expect(row).toMatchObject({ useKind: 'member_icon' });
    expect(row!.ownerUserId).toBe(row!.useId);
    const second = await register('icon-2@example.jp');
    expect(second.statusCode).toBe(422);
    expect(second.json().errors).toEqual([{ field: 'user_icon_url', code: 'upload_missing' }]);
    // A member's own upload is not an anonymous one.
    const members = await upload(t, await jpegPhoto(48, 48), { token: owner.token });
    expect((await register('icon-3@example.jp')).statusCode).toBe(422);
    expect((await uploadRow(members))!.useKind).toBeNull();
  });

  it('are limited in size', async () => {
    // Noise does not compress: a 1000 px square PNG of it is about 3 MB.
    const big = await sharp(randomBytes(1000 * 1000 * 3), {
      raw: { width: 1000, height: 1000, channels: 3 },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(MAX_ANONYMOUS_UPLOAD_BYTES);
    const anonymous = await tryUpload(t, big, { token: undefined, fileName: 'big.png' });
    expect(anonymous.put.statusCode).toBe(413);
    expect(anonymous.put.json()).toMatchObject({
      code: 'image_too_large',
      detail: expect.any(String),
    });
    expect(await t.ctx.store.get(anonymous.imageName)).toBeUndefined();
    const member = await tryUpload(t, big, { token: owner.token, fileName: 'big.png' });
    expect(member.put.statusCode).toBe(204);
  });

  it('are limited per client address; a member’s own limit is separate and higher', async () => {
    const limited = await createTestApp();
    try {
      const member = await createMember(limited);
      const ask = (headers: Record<string, string> = {}, token?: string) =>
        limited.request({
          method: 'GET',
          url: '/v1/signed_url?method=PUT&image_name=a.jpg',
          headers,
          ...(token ? { token } : {}),
        });
      for (let call = 0; call < SIGNED_URL_CALLS_PER_CLIENT; call += 1) {
        expect((await ask()).statusCode).toBe(200);
      }
      const refused = await ask();
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.json()).toMatchObject({ code: 'rate_limited', detail: expect.any(String) });
      expect((await ask({ 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(429);
      expect((await ask({}, member.token)).statusCode).toBe(200);
      expect(SIGNED_URL_CALLS_PER_MEMBER).toBeGreaterThan(SIGNED_URL_CALLS_PER_CLIENT);
    } finally {
      await limited.close();
    }
  });
});
