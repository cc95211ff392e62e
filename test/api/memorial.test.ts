import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { areConnected } from '../../server/domain/connections';
import { memorialDepsOf } from '../../server/areaDeps';
import { redeemPetAdminLink } from '../../server/domain/memorial/invitations';
import { eq } from 'drizzle-orm';
import { users } from '../../server/db/schema';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { fetchSigned, jpegPhoto, signedPut, tryUpload, upload } from './memorialSupport';

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

/** Moves the clock; the shared members get fresh access tokens (they live 15 minutes). */
async function advanceClock(ms: number): Promise<void> {
  t.clock.advance(ms);
  for (const member of [owner, friend, stranger]) {
    member.token = await issueAccessToken(member.id, t.config.authSecret, t.clock);
  }
}

const petPage = {
  type: 'pet',
  first_name: 'ポチ',
  first_name_kana: 'ぽち',
  animal_kind: '柴犬',
  birth_date: '2012-04-01',
  death_date: '2026-03-01',
  privacy: 'public',
};

async function createPage(member: TestMember, body: Record<string, unknown> = petPage) {
  const response = await t.request({
    method: 'POST',
    url: '/v1/memorial_page',
    token: member.token,
    body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { memorialPageId: string } & Record<string, unknown>;
}

describe('memorial pages', () => {
  it('creates a pet page whose creator is its admin, with its anniversaries', async () => {
    const page = await createPage(owner);
    expect(page).toMatchObject({
      type: 'pet',
      firstName: 'ポチ',
      animalKind: '柴犬',
      deathDate: '2026-03-01',
      privacy: 'public',
      role: 'admin',
      mode: 'admin_edit',
      flowerCount: 0,
    });
    expect(page.anniversaries).toContainEqual({ code: 'shonanoka', date: '2026-03-07' });
    expect(page.anniversaries).toContainEqual({ code: 'isshuki', date: '2027-03-01' });
  });

  it('creates a page for another person (otherAdmin) and shows it to a visitor as admin_view', async () => {
    const page = await createPage(owner, {
      type: 'other',
      last_name: '山田',
      first_name: '花子',
      last_name_kana: 'やまだ',
      first_name_kana: 'はなこ',
      privacy: 'connections',
    });
    const seen = await t.request({
      method: 'GET',
      url: `/v1/memorial_page/${page.memorialPageId}`,
      token: friend.token,
    });
    expect(seen.json()).toMatchObject({ role: null, mode: 'admin_view', anniversaries: [] });
  });

  it('refuses bad profiles field by field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...petPage, animal_kind: undefined }, 'animal_kind', 'required'],
      [{ ...petPage, first_name_kana: 'ポチ' }, 'first_name_kana', 'kana_hiragana_only'],
      [{ ...petPage, death_date: '2011-01-01' }, 'death_date', 'death_before_birth'],
      [{ ...petPage, death_date: '2026-11-23' }, 'death_date', 'date_in_future'],
      [{ ...petPage, birth_date: '2023-02-29' }, 'birth_date', 'invalid_date'],
      [{ ...petPage, privacy: 'friends' }, 'privacy', 'invalid_choice'],
    ];
    for (const [body, field, code] of cases) {
      const response = await t.request({
        method: 'POST',
        url: '/v1/memorial_page',
        token: owner.token,
        body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().errors).toContainEqual({ field, code });
    }
    const self = await t.request({
      method: 'POST',
      url: '/v1/memorial_page',
      token: owner.token,
      body: { ...petPage, type: 'self' },
    });
    expect(self.statusCode).toBe(422);
  });

  it('lets admins change the profile and privacy, and keeps death after birth', async () => {
    const page = await createPage(owner);
    const url = `/v1/memorial_page/${page.memorialPageId}`;
    const changed = await t.request({
      method: 'PATCH',
      url,
      token: owner.token,
      body: { animal_kind: '猫', privacy: 'admins', searchable: false, death_date: null },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      animalKind: '猫',
      privacy: 'admins',
      searchable: false,
      deathDate: null,
      anniversaries: [],
    });
    const wrong = await t.request({
      method: 'PATCH',
      url,
      token: owner.token,
      body: { death_date: '2000-01-01' },
    });
    expect(wrong.json().errors).toEqual([{ field: 'death_date', code: 'death_before_birth' }]);
    const hidden = await t.request({ method: 'GET', url, token: friend.token });
    expect(hidden.statusCode).toBe(404);
  });

  it('takes a profile photo only when it is an uploaded image, and drops a replaced one', async () => {
    const page = await createPage(owner);
    const url = `/v1/memorial_page/${page.memorialPageId}`;
    const photoName = await upload(t, await jpegPhoto(400, 400), { token: owner.token });
    const response = await t.request({
      method: 'PATCH',
      url,
      token: owner.token,
      body: { photo_name: photoName },
    });
    expect(response.json()).toMatchObject({
      photoName,
      photoUrl: expect.stringContaining('/files/'),
      photoThumbnailUrl: expect.stringContaining('/files/thumbs/'),
    });
    const thumbnail = await fetchSigned(t, response.json().photoThumbnailUrl);
    expect(thumbnail.headers['content-type']).toBe('image/webp');

    const fake = await tryUpload(t, Buffer.from('<html>not a photo</html>'), {
      token: owner.token,
      fileName: 'x.jpg',
    });
    expect(fake.put.statusCode).toBe(415);
    const refused = await t.request({
      method: 'PATCH',
      url,
      token: owner.token,
      body: { photo_name: fake.imageName },
    });
    expect(refused.json().errors).toEqual([{ field: 'photo_name', code: 'upload_missing' }]);

    const removed = await t.request({
      method: 'PATCH',
      url,
      token: owner.token,
      body: { photo_name: null },
    });
    expect(removed.json()).toMatchObject({
      photoName: null,
      photoUrl: null,
      photoThumbnailUrl: null,
    });
    expect(await t.ctx.store.get(photoName)).toBeUndefined();
  });
});

describe('album', () => {
  let pageId: string;
  let albumUrl: string;
  beforeAll(async () => {
    pageId = (await createPage(owner)).memorialPageId;
    albumUrl = `/v1/album/memorial_page_id/${pageId}/album`;
  });

  const addPhoto = (imageName: string, caption = '') =>
    t.request({
      method: 'POST',
      url: albumUrl,
      token: owner.token,
      body: { image_name: imageName, caption, taken_on: '2020-05-05' },
    });

  it('stores a real photo with a WebP thumbnail of at most 320 px, both served by signed URL', async () => {
    const photo = await jpegPhoto(1600, 1200);
    const imageName = await upload(t, photo, { token: owner.token, fileName: 'IMG_0001.JPG' });
    expect(imageName).toMatch(/^uploads\/[A-Za-z0-9_-]{22}\.jpg$/);
    const response = await addPhoto(imageName, '散歩の日');
    expect(response.statusCode, response.body).toBe(201);
    const added = response.json();
    expect(added).toMatchObject({
      caption: '散歩の日',
      takenOn: '2020-05-05',
      width: 1600,
      height: 1200,
    });
    const original = await fetchSigned(t, added.url);
    expect(original.rawPayload.equals(photo)).toBe(true);
    const thumbnail = await fetchSigned(t, added.thumbnailUrl);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumbnail.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 240 });
    expect(added.thumbnailBytes).toBe(thumbnail.rawPayload.length);
    expect(added.thumbnailBytes).toBeLessThan(photo.length / 5);
  });

  it('judges uploads by their bytes when they arrive, not by their name or declared type', async () => {
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#88aacc' },
    })
      .png()
      .toBuffer();
    const renamedPng = await upload(t, png, {
      token: owner.token,
      fileName: 'photo.png',
      contentType: 'text/html',
    });
    const accepted = await addPhoto(renamedPng);
    expect(accepted.statusCode).toBe(201);
    const served = await fetchSigned(t, accepted.json().url);
    expect(served.headers['content-type']).toBe('image/png');

    const refusals = [
      [Buffer.from('#!/bin/sh\necho hello\n'), 'cute.png', 'not_an_image'],
      [(await jpegPhoto(200, 200)).subarray(0, 40), 'broken.jpg', 'not_an_image'],
      [
        Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(64)]),
        'IMG.HEIC',
        'image_heic_unsupported',
      ],
    ] as const;
    for (const [bytes, fileName, code] of refusals) {
      const { imageName, put } = await tryUpload(t, bytes, {
        token: owner.token,
        fileName,
        contentType: 'image/png',
      });
      expect(imageName).not.toMatch(/\.heic$/);
      expect(put.statusCode).toBe(415);
      expect(put.json().code).toBe(code);
      expect((await addPhoto(imageName)).json().errors).toEqual([
        { field: 'image_name', code: 'upload_missing' },
      ]);
    }
  });

  it('drops EXIF (camera GPS) from an original and keeps it upright', async () => {
    const tagged = await sharp({
      create: { width: 60, height: 40, channels: 3, background: '#996633' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '35/1 40/1 0/1' } })
      .toBuffer();
    expect((await sharp(tagged).metadata()).exif).toBeDefined();
    const added = (await addPhoto(await upload(t, tagged, { token: owner.token }))).json();
    const original = await fetchSigned(t, added.url);
    const meta = await sharp(original.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 40, height: 60 });
    expect(added).toMatchObject({ width: 40, height: 60 });
  });

  it('refuses an oversized upload at PUT and keeps nothing of it', async () => {
    const { MAX_UPLOAD_BYTES } = await import('../../server/storage/objectStore');
    const big = Buffer.concat([await jpegPhoto(100, 100), Buffer.alloc(MAX_UPLOAD_BYTES)]);
    const { imageName, put } = await tryUpload(t, big, { token: owner.token, fileName: 'big.jpg' });
    expect(put.statusCode).toBe(413);
    expect(await t.ctx.store.get(imageName)).toBeUndefined();
    expect((await addPhoto(imageName)).json().errors).toEqual([
      { field: 'image_name', code: 'upload_missing' },
    ]);
  });

  it('refuses a PUT on an expired URL, a missing upload and a name it did not issue', async () => {
    const { url, imageName } = await signedPut(t, owner.token, 'a.jpg');
    await advanceClock(16 * 60 * 1000);
    const target = new URL(url);
    const late = await t.app.inject({
      method: 'PUT',
      url: target.pathname + target.search,
      headers: { 'content-type': 'image/jpeg' },
      payload: await jpegPhoto(50, 50),
    });
    expect(late.statusCode).toBe(403);
    expect(late.json().code).toBe('signed_url_expired');
    expect((await addPhoto(imageName)).json().errors).toEqual([
      { field: 'image_name', code: 'upload_missing' },
    ]);
    expect((await addPhoto('thumbs/AbCdEfGhIjKlMnOpQrStUv.webp')).json().errors).toEqual([
      { field: 'image_name', code: 'image_name_invalid' },
    ]);
  });

  it('uses one upload for one thing only', async () => {
    const name = await upload(t, await jpegPhoto(80, 80), { token: owner.token });
    expect((await addPhoto(name)).statusCode).toBe(201);
    expect((await addPhoto(name)).json().errors).toEqual([
      { field: 'image_name', code: 'image_already_used' },
    ]);
    const inHistory = await t.request({
      method: 'POST',
      url: `/v1/history/memorial_page_id/${pageId}/history`,
      token: owner.token,
      body: { occurred_on: '2020-01-01', body: '同じ写真', image_name: name },
    });
    expect(inHistory.json().errors).toEqual([{ field: 'image_name', code: 'image_already_used' }]);
  });

  it('lists, reorders, edits and deletes photos', async () => {
    const listed = (await t.request({ method: 'GET', url: albumUrl, token: friend.token })).json();
    const ids = listed.map((photo: { id: string }) => photo.id);
    expect(listed.map((photo: { position: number }) => photo.position)).toEqual(
      ids.map((_: string, index: number) => index),
    );
    const reversed = [...ids].reverse();
    const reordered = await t.request({
      method: 'PUT',
      url: `${albumUrl}/order`,
      token: owner.token,
      body: { photo_ids: reversed },
    });
    expect(reordered.json().map((photo: { id: string }) => photo.id)).toEqual(reversed);
    const partial = await t.request({
      method: 'PUT',
      url: `${albumUrl}/order`,
      token: owner.token,
      body: { photo_ids: reversed.slice(1) },
    });
    expect(partial.json().errors).toEqual([{ field: 'photo_ids', code: 'album_order_mismatch' }]);

    const edited = await t.request({
      method: 'PATCH',
      url: `${albumUrl}/${reversed[0]}`,
      token: owner.token,
      body: { caption: '庭で', taken_on: null },
    });
    expect(edited.json()).toMatchObject({ caption: '庭で', takenOn: null });

    const victim = listed[0];
    const removed = await t.request({
      method: 'DELETE',
      url: `${albumUrl}/${victim.id}`,
      token: owner.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(await t.ctx.store.get(victim.imageName)).toBeUndefined();
    const again = await t.request({
      method: 'DELETE',
      url: `${albumUrl}/${victim.id}`,
      token: owner.token,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('signed URLs in lists', () => {
  it('reuses a URL while two thirds of its life remain, then signs a fresh one', async () => {
    const { memorialPageId } = await createPage(owner);
    const albumUrl = `/v1/album/memorial_page_id/${memorialPageId}/album`;
    await t.request({
      method: 'POST',
      url: albumUrl,
      token: owner.token,
      body: { image_name: await upload(t, await jpegPhoto(60, 60), { token: owner.token }) },
    });
    const firstUrl = async () =>
      (await t.request({ method: 'GET', url: albumUrl, token: owner.token })).json()[0].url;
    const first = await firstUrl();
    await advanceClock(4 * 60 * 1000);
    expect(await firstUrl()).toBe(first);
    await advanceClock(2 * 60 * 1000);
    const fresh = await firstUrl();
    expect(fresh).not.toBe(first);
    const expires = Number(new URL(fresh).searchParams.get('expires')) * 1000;
    expect(expires - t.clock.now().getTime()).toBe(15 * 60 * 1000);
  });
});

describe('history', () => {
  it('adds dated entries with an optional photo, lists them by date, edits and deletes', async () => {
    const { memorialPageId } = await createPage(owner);
    const base = `/v1/history/memorial_page_id/${memorialPageId}/history`;
    const photo = await upload(t, await jpegPhoto(300, 200), { token: owner.token });
    const later = await t.request({
      method: 'POST',
      url: base,
      token: owner.token,
      body: { occurred_on: '2015-08-10', body: '初めての海', image_name: photo },
    });
    expect(later.statusCode, later.body).toBe(201);
    expect(later.json()).toMatchObject({ imageName: photo, thumbnailUrl: expect.any(String) });
    await t.request({
      method: 'POST',
      url: base,
      token: owner.token,
      body: { occurred_on: '2012-04-01', body: 'うちに来た日' },
    });
    const list = async () =>
      (
        await t.request({
          method: 'GET',
          url: `/v1/history/get_histories_by_memorial_page_id/${memorialPageId}`,
          token: stranger.token,
        })
      ).json() as { id: string; body: string; imageName: string | null }[];
    expect((await list()).map((entry) => entry.body)).toEqual(['うちに来た日', '初めての海']);

    const edited = await t.request({
      method: 'PATCH',
      url: `${base}/${later.json().id}`,
      token: owner.token,
      body: { body: '初めての海水浴', image_name: null },
    });
    expect(edited.json()).toMatchObject({ body: '初めての海水浴', imageName: null, url: null });
    expect(await t.ctx.store.get(photo)).toBeUndefined();

    const empty = await t.request({
      method: 'POST',
      url: base,
      token: owner.token,
      body: { occurred_on: '2015-13-01', body: ' ' },
    });
    expect(empty.json().errors).toEqual(
      expect.arrayContaining([
        { field: 'occurred_on', code: 'invalid_date' },
        { field: 'body', code: 'required' },
      ]),
    );

    const removed = await t.request({
      method: 'DELETE',
      url: `${base}/${later.json().id}`,
      token: owner.token,
    });
    expect(removed.statusCode).toBe(204);
    expect((await list()).map((entry) => entry.body)).toEqual(['うちに来た日']);
  });
});

describe('mourning', () => {
  it('shows a condolence to others only after an admin approves it, and never once hidden', async () => {
    const { memorialPageId } = await createPage(owner);
    const url = `/v1/memorial_page/${memorialPageId}/condolences`;
    const posted = await t.request({
      method: 'POST',
      url,
      token: stranger.token,
      body: { body: '安らかにお眠りください。' },
    });
    expect(posted.json()).toMatchObject({ status: 'pending', authorUserId: stranger.id });
    const read = async (token?: string) =>
      ((await t.request({ method: 'GET', url, token })).json() as { body: string }[]).map(
        (message) => message.body,
      );
    expect(await read(friend.token)).toEqual([]);
    expect(await read()).toEqual([]);
    expect(await read(stranger.token)).toEqual(['安らかにお眠りください。']);
    expect(await read(owner.token)).toEqual(['安らかにお眠りください。']);

    const decide = (status: string) =>
      t.request({
        method: 'PATCH',
        url: `${url}/${posted.json().id}`,
        token: owner.token,
        body: { status },
      });
    expect((await decide('approved')).json().status).toBe('approved');
    expect(await read(friend.token)).toEqual(['安らかにお眠りください。']);
    expect(await read()).toEqual(['安らかにお眠りください。']);
    await decide('hidden');
    expect(await read(friend.token)).toEqual([]);

    const byAdmin = await t.request({
      method: 'POST',
      url,
      token: owner.token,
      body: { body: 'ありがとう' },
    });
    expect(byAdmin.json().status).toBe('approved');
    const anonymous = await t.request({ method: 'POST', url, body: { body: 'こんにちは' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('counts one flower per member and day (Japan)', async () => {
    const { memorialPageId } = await createPage(owner);
    const offer = (member: TestMember) =>
      t.request({
        method: 'POST',
        url: `/v1/memorial_page/${memorialPageId}/flowers`,
        token: member.token,
      });
    expect((await offer(friend)).json()).toEqual({ flowerCount: 1, offeredToday: true });
    expect((await offer(friend)).json().flowerCount).toBe(1);
    await advanceClock(24 * 60 * 60 * 1000);
    expect((await offer(friend)).json().flowerCount).toBe(2);
    expect((await offer(stranger)).json().flowerCount).toBe(3);
    const page = await t.request({ method: 'GET', url: `/v1/memorial_page/${memorialPageId}` });
    expect(page.json().flowerCount).toBe(3);
  });
});

describe('invitations by shared link', () => {
  const invitationBody = (token: string, invitingUserId: string) => ({
    token,
    inviting_user_id: invitingUserId,
  });
  const createToken = async (member: TestMember, pageId: string, setAdmin: boolean) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/share_token/create_share_token',
      token: member.token,
      body: { memorial_page_id: pageId, set_admin: setAdmin },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { token: string; invitingUserId: string };
  };
  const validate = async (body: unknown, token?: string) =>
    (
      await t.request({ method: 'POST', url: '/v1/share_token/validate_share_token', body, token })
    ).json().isValid as boolean;

  it('validates, connects, adds the invitee as admin and ends the token (setAdmin)', async () => {
    const inviter = await createMember(t);
    const invitee = await createMember(t);
    const share = await createToken(inviter, inviter.memorialPageId, true);
    expect(share.invitingUserId).toBe(inviter.id);
    const body = invitationBody(share.token, share.invitingUserId);

    expect(await validate(body)).toBe(true);
    expect(await validate(invitationBody(share.token, invitee.id))).toBe(false);
    expect(await validate(invitationBody('nope', inviter.id))).toBe(false);
    expect(await validate({ token: 1 })).toBe(false);
    expect(await validate(undefined)).toBe(false);

    const pageId = await t.request({
      method: 'POST',
      url: '/v1/memorial_page/get_memorial_page_id_from_inviting_user_id',
      body,
    });
    expect(pageId.json()).toBe(inviter.memorialPageId);

    const anonymousConnect = await t.request({
      method: 'POST',
      url: '/v1/connection/create_connection_to_inviting_user',
      body,
    });
    expect(anonymousConnect.statusCode).toBe(401);
    const connect = await t.request({
      method: 'POST',
      url: '/v1/connection/create_connection_to_inviting_user',
      token: invitee.token,
      body,
    });
    expect(connect.statusCode).toBe(204);
    const db = t.ctx.database.db;
    expect(await areConnected(db, invitee.id, inviter.id)).toBe(true);
    expect(await areConnected(db, inviter.id, invitee.id)).toBe(true);

    const someoneElse = await createMember(t);
    expect(await validate(body, someoneElse.token)).toBe(false);

    const added = await t.request({
      method: 'POST',
      url: `/v1/memorial_page/add_memorial_page_admin/${inviter.memorialPageId}/${invitee.id}`,
      token: invitee.token,
    });
    expect(added.statusCode, added.body).toBe(200);
    const admins = await t.request({
      method: 'GET',
      url: `/v1/memorial_page/get_memorial_page_admin/${inviter.memorialPageId}`,
      token: invitee.token,
    });
    expect(admins.json().map((admin: { userId: string }) => admin.userId)).toEqual([
      inviter.id,
      invitee.id,
    ]);

    const expire = await t.request({
      method: 'PATCH',
      url: '/v1/share_token/expire_share_token',
      token: invitee.token,
      body,
    });
    expect(expire.statusCode).toBe(204);
    expect(await validate(body)).toBe(false);
    const reuse = await t.request({
      method: 'POST',
      url: '/v1/connection/create_connection_to_inviting_user',
      token: someoneElse.token,
      body,
    });
    expect(reuse.json()).toMatchObject({ code: 'invalid_invitation' });
  });

  it('without setAdmin the invitee connects but cannot make themself admin', async () => {
    const inviter = await createMember(t);
    const invitee = await createMember(t);
    const share = await createToken(inviter, inviter.memorialPageId, false);
    await t.request({
      method: 'POST',
      url: '/v1/connection/create_connection_to_inviting_user',
      token: invitee.token,
      body: invitationBody(share.token, share.invitingUserId),
    });
    const added = await t.request({
      method: 'POST',
      url: `/v1/memorial_page/add_memorial_page_admin/${inviter.memorialPageId}/${invitee.id}`,
      token: invitee.token,
    });
    expect(added.statusCode).toBe(403);
  });

  it('expires a week after it was made, and refuses the inviter accepting their own link', async () => {
    const inviter = await createMember(t);
    const share = await createToken(inviter, inviter.memorialPageId, false);
    const body = invitationBody(share.token, share.invitingUserId);
    const own = await t.request({
      method: 'POST',
      url: '/v1/connection/create_connection_to_inviting_user',
      token: inviter.token,
      body,
    });
    expect(own.statusCode).toBe(404);
    await advanceClock(7 * 24 * 60 * 60 * 1000 + 1000);
    expect(await validate(body)).toBe(false);
  });

  it('lets an admin add a connection as admin, but not a member they are not connected to', async () => {
    const page = await createPage(owner);
    const add = (userId: string) =>
      t.request({
        method: 'POST',
        url: `/v1/memorial_page/add_memorial_page_admin/${page.memorialPageId}/${userId}`,
        token: owner.token,
      });
    expect((await add(friend.id)).statusCode).toBe(200);
    expect((await add(stranger.id)).statusCode).toBe(404);
  });

  it('does not list an admin whose account was deleted', async () => {
    const page = await createPage(owner);
    const leaving = await createMember(t);
    await connectMembers(t, owner, leaving);
    await t.request({
      method: 'POST',
      url: `/v1/memorial_page/add_memorial_page_admin/${page.memorialPageId}/${leaving.id}`,
      token: owner.token,
    });
    const adminIds = async () =>
      (
        await t.request({
          method: 'GET',
          url: `/v1/memorial_page/get_memorial_page_admin/${page.memorialPageId}`,
          token: owner.token,
        })
      )
        .json()
        .map((admin: { userId: string }) => admin.userId);
    expect(await adminIds()).toEqual([owner.id, leaving.id]);
    await t.ctx.database.db
      .update(users)
      .set({ status: 'deleted' })
      .where(eq(users.id, leaving.id));
    expect(await adminIds()).toEqual([owner.id]);
  });

  it('turns a pet-admin link into admin rights at registration, once', async () => {
    const page = await createPage(owner);
    const share = await createToken(owner, page.memorialPageId, true);
    const newcomer = await createMember(t);
    const deps = memorialDepsOf(t.ctx);
    expect(await redeemPetAdminLink(deps, share.token, newcomer.id)).toBe(page.memorialPageId);
    expect(await redeemPetAdminLink(deps, share.token, stranger.id)).toBeUndefined();
    const seen = await t.request({
      method: 'GET',
      url: `/v1/memorial_page/${page.memorialPageId}`,
      token: newcomer.token,
    });
    expect(seen.json().mode).toBe('admin_edit');
    const personal = await createToken(owner, owner.memorialPageId, true);
    expect(await redeemPetAdminLink(deps, personal.token, newcomer.id)).toBeUndefined();
  });
});

describe('GET /v1/signed_url', () => {
  it('chooses the PUT name itself, with the image extension of the hint or .jpg', async () => {
    const names = await Promise.all(
      ['evil.html', 'photo.PNG', '../../etc/passwd', 'a.webp', ''].map(async (hint) => {
        const response = await t.request({
          method: 'GET',
          url: `/v1/signed_url?method=PUT&image_name=${encodeURIComponent(hint)}`,
        });
        return response.json().imageName as string;
      }),
    );
    expect(names[0]).toMatch(/^uploads\/[A-Za-z0-9_-]{22}\.jpg$/);
    expect(names[1]).toMatch(/\.png$/);
    expect(names[2]).toMatch(/^uploads\/[A-Za-z0-9_-]{22}\.jpg$/);
    expect(names[3]).toMatch(/\.webp$/);
    expect(new Set(names).size).toBe(names.length);
  });

  it('signs a GET for the owner of an upload, bound to GET and expiring within 15 minutes', async () => {
    const name = await upload(t, await jpegPhoto(40, 40), { token: owner.token });
    const response = await t.request({
      method: 'GET',
      url: `/v1/signed_url?method=GET&image_name=${encodeURIComponent(name)}`,
      token: owner.token,
    });
    const { url } = response.json();
    expect((await fetchSigned(t, url)).statusCode).toBe(200);
    const expires = Number(new URL(url).searchParams.get('expires'));
    expect(expires * 1000 - t.clock.now().getTime()).toBeLessThanOrEqual(15 * 60 * 1000);
    const bad = await t.request({
      method: 'GET',
      url: '/v1/signed_url?method=GET&image_name=../x',
    });
    expect(bad.json().errors).toEqual([{ field: 'image_name', code: 'image_name_invalid' }]);
    const method = await t.request({ method: 'GET', url: '/v1/signed_url?method=POST' });
    expect(method.statusCode).toBe(422);
  });
});
