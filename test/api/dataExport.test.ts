/**
 * A member's archive of all their data (docs/data-export.md), on the database the suite runs
 * on (PGlite, or PostgreSQL with API_TEST_DATABASE=postgres), with the embedded store and
 * with S3 (the stand-in bucket of test/support/s3Bucket.ts). Archives are opened with yauzl.
 */
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataExports,
  letterDeliveries,
  timeCapsuleLetterRecipients,
  timeCapsuleLetters,
  uploads,
} from '../../server/db/schema';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { runDataExports } from '../../server/domain/dataExport/requests';
import { dataExportDepsOf } from '../../server/areaDeps';
import { createS3Store, MULTIPART_PART_BYTES } from '../../server/storage/s3Store';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { startS3Bucket } from '../support/s3Bucket';
import { createTestApp, type TestApp } from '../support/testApp';
import { unzip } from '../support/unzip';
import { jpegPhoto, upload } from './memorialSupport';

const S3 = {
  bucket: 'archives',
  accessKeyId: 'SHINOBUTESTKEY',
  secretAccessKey: 'shinobu-test-secret',
};

/** A fresh token: the suite's members have no password, so a recent sign-in is their proof. */
const freshToken = async (t: TestApp, member: TestMember) =>
  issueAccessToken(member.id, t.config.authSecret, t.clock);

const build = (t: TestApp) => runDataExports(dataExportDepsOf(t.ctx));

async function requestExport(t: TestApp, member: TestMember) {
  return t.request({
    method: 'POST',
    url: '/v1/data_exports',
    token: await freshToken(t, member),
    body: {},
  });
}

async function downloadLink(t: TestApp, member: TestMember, exportId: string) {
  return t.request({
    method: 'POST',
    url: `/v1/data_exports/${exportId}/download_link`,
    token: await freshToken(t, member),
  });
}

const download = (t: TestApp, url: string) => {
  const target = new URL(url);
  return t.app.inject({ method: 'GET', url: target.pathname + target.search });
};

interface Seeded {
  photos: Map<string, Buffer>;
  letterPhoto: Buffer;
  /** A death report's document about the owner, uploaded by someone else. */
  reportDocument: Buffer;
}

/** The owner's data of every kind, and a stranger's that must not reach the archive. */
async function seed(t: TestApp, owner: TestMember, friend: TestMember, stranger: TestMember) {
  const photos = new Map<string, Buffer>();
  for (const [index, size] of [64, 80].entries()) {
    const bytes = await jpegPhoto(size, 48);
    const imageName = await upload(t, bytes, { token: owner.token });
    const added = await t.request({
      method: 'POST',
      url: `/v1/album/memorial_page_id/${owner.memorialPageId}/album`,
      token: owner.token,
      body: { image_name: imageName, caption: `写真${index + 1}` },
    });
    expect(added.statusCode, added.body).toBe(201);
    photos.set(imageName, bytes);
  }
  const strangerPhoto = await upload(t, await jpegPhoto(32, 32), { token: stranger.token });
  await t.request({
    method: 'POST',
    url: `/v1/album/memorial_page_id/${stranger.memorialPageId}/album`,
    token: stranger.token,
    body: { image_name: strangerPhoto, caption: '他人の写真' },
  });

  const saved = await t.request({
    method: 'PUT',
    url: `/v1/endingnote/${owner.id}/sections/funeral`,
    token: owner.token,
    body: { version: 0, values: { style: 'one_day' } },
  });
  expect(saved.statusCode, saved.body).toBe(200);

  await connectMembers(t, owner, friend);
  const db = t.ctx.database.db;
  const letterPhoto = await jpegPhoto(40, 40);
  const letterPhotoName = await upload(t, letterPhoto, { token: owner.token });
  await db.insert(timeCapsuleLetters).values({
    senderUserId: owner.id,
    title: '未来のあなたへ',
    body: '書いた手紙の本文',
    rule: 'death',
    delayDays: 0,
    photoNames: [letterPhotoName],
  });
  const [received] = await db
    .insert(timeCapsuleLetters)
    .values({
      senderUserId: friend.id,
      title: '届いた手紙',
      body: '受け取った本文',
      rule: 'death',
      delayDays: 0,
    })
    .returning({ id: timeCapsuleLetters.id });
  const [recipient] = await db
    .insert(timeCapsuleLetterRecipients)
    .values({ letterId: received!.id, position: 0, userId: owner.id })
    .returning({ id: timeCapsuleLetterRecipients.id });
  await db.insert(letterDeliveries).values({
    letterId: received!.id,
    recipientId: recipient!.id,
    recipientUserId: owner.id,
    deliveredAt: t.clock.now(),
    late: false,
  });
  await db.insert(timeCapsuleLetters).values({
    senderUserId: stranger.id,
    title: '他人の手紙',
    body: '他人の本文',
    rule: 'death',
    delayDays: 0,
  });
  const reportDocument = await jpegPhoto(30, 40);
  const documentName = await upload(t, reportDocument, { token: friend.token });
  await db
    .update(uploads)
    .set({ useKind: 'death_document', useId: owner.id })
    .where(eq(uploads.objectName, documentName));
  return { photos, letterPhoto, reportDocument } satisfies Seeded;
}

describe.each([
  ['the embedded store', false],
  ['S3', true],
])('an archive of all of a member’s data, with %s', (_name, withS3) => {
  let t: TestApp;
  let bucket: Awaited<ReturnType<typeof startS3Bucket>> | undefined;
  let owner: TestMember;
  let friend: TestMember;
  let stranger: TestMember;
  let seeded: Seeded;

  beforeAll(async () => {
    bucket = withS3 ? await startS3Bucket(S3.bucket) : undefined;
    t = await createTestApp(
      bucket
        ? {
            S3_BUCKET: S3.bucket,
            S3_ACCESS_KEY_ID: S3.accessKeyId,
            S3_SECRET_ACCESS_KEY: S3.secretAccessKey,
            S3_ENDPOINT: bucket.endpoint,
            S3_FORCE_PATH_STYLE: 'true',
          }
        : {},
    );
    owner = await createMember(t, { email: 'owner-export@example.jp' });
    friend = await createMember(t, { lastName: '佐藤', firstName: '花子' });
    stranger = await createMember(t, { email: 'stranger-export@example.jp' });
    seeded = await seed(t, owner, friend, stranger);
  });
  afterAll(async () => {
    await t.close();
    await bucket?.close();
  });

  it('needs a fresh proof: a sign-in older than 5 minutes is refused', async () => {
    const token = await freshToken(t, owner);
    t.clock.advance(6 * 60 * 1000);
    const stale = await t.request({ method: 'POST', url: '/v1/data_exports', token, body: {} });
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe('recent_sign_in_required');
  });

  it('is built in the background and downloaded once, with every kind of data and nothing of others', async () => {
    const mailsBefore = t.mailbox.length;
    const requested = await requestExport(t, owner);
    expect(requested.statusCode, requested.body).toBe(202);
    const exportId = requested.json().id as string;
    expect(requested.json()).toMatchObject({ status: 'requested', readyAt: null });
    const notice = t.mailbox.slice(mailsBefore).find((mail) => mail.to === owner.email);
    expect(notice?.text).toContain('すべてのデータの書き出し');
    const again = await requestExport(t, owner);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('data_export_in_progress');
    expect((await downloadLink(t, owner, exportId)).statusCode).toBe(409);

    expect(await build(t)).toMatchObject({ built: 1 });
    const listed = await t.request({ method: 'GET', url: '/v1/data_exports', token: owner.token });
    expect(listed.json().exports).toEqual([
      expect.objectContaining({ id: exportId, status: 'ready', byteSize: expect.any(Number) }),
    ]);
    const notices = await t.request({
      method: 'GET',
      url: '/v1/notification/user_notifications',
      token: owner.token,
    });
    expect(JSON.stringify(notices.json())).toContain('data_export_ready');

    expect((await downloadLink(t, stranger, exportId)).statusCode).toBe(404);
    const link = await downloadLink(t, owner, exportId);
    expect(link.statusCode, link.body).toBe(201);
    const answer = await download(t, link.json().url);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/zip');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="shinobu-data-\d{8}\.zip"$/,
    );
    const files = await unzip(answer.rawPayload);
    const json = (path: string) => JSON.parse(files.get(path)!.body.toString('utf8'));

    expect(json('profile.json')).toMatchObject({ id: owner.id, email: owner.email });
    expect(json('connections.json').connections).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ id: friend.id }) }),
    ]);
    const folder = `memorial_pages/${owner.memorialPageId}/`;
    expect(json(`${folder}page.json`)).toMatchObject({ id: owner.memorialPageId });
    const album = json(`${folder}album.json`) as { caption: string; file: string }[];
    expect(album.map((photo) => photo.caption)).toEqual(['写真1', '写真2']);
    for (const [imageName, bytes] of seeded.photos) {
      const file = album.find((photo) => photo.file.endsWith(imageName.split('/')[1]!))!.file;
      expect(files.get(file)!.body.equals(bytes)).toBe(true);
      // Photos are compressed already: stored as they are.
      expect(files.get(file)!.compressionMethod).toBe(0);
    }
    // Sealed in the database, readable in the archive.
    const funeral = (json('ending_note.json').sections as { section: string }[]).find(
      (section) => section.section === 'funeral',
    );
    expect(JSON.stringify(funeral)).toContain('one_day');
    const written = json('letters/written.json');
    expect(written).toEqual([expect.objectContaining({ body: '書いた手紙の本文' })]);
    expect(files.get(written[0].photos[0])!.body.equals(seeded.letterPhoto)).toBe(true);
    expect(json('letters/received.json')).toEqual([
      expect.objectContaining({ body: '受け取った本文', senderLastName: '佐藤' }),
    ]);
    const documents = json('death_settings.json').reportDocuments as { file: string }[];
    expect(documents).toHaveLength(1);
    expect(files.get(documents[0]!.file)!.body.equals(seeded.reportDocument)).toBe(true);
    for (const path of ['death_settings.json', 'integration_links.json', 'notifications.json']) {
      expect(files.has(path), path).toBe(true);
    }
    expect(json('notifications.json')).toContainEqual(
      expect.objectContaining({ kind: 'data_export_requested' }),
    );
    const readme = files.get('README.txt')!.body.toString('utf8');
    expect(readme).toContain('ending_note.json');
    expect(readme).not.toContain('読み込めなかった');
    expect([...files.keys()].at(-1)).toBe('README.txt');

    const everything = Buffer.concat([...files.values()].map((file) => file.body)).toString();
    for (const foreign of ['他人の写真', '他人の手紙', stranger.email]) {
      expect(everything).not.toContain(foreign);
    }

    const reused = await download(t, link.json().url);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ code: 'download_link_invalid' });
    expect(reused.json().detail).toContain('リンク');

    const late = await downloadLink(t, owner, exportId);
    t.clock.advance(16 * 60 * 1000);
    expect((await download(t, late.json().url)).statusCode).toBe(400);
    expect((await download(t, `${link.json().url}x`)).statusCode).toBe(400);
  });

  it('names in README.txt a photo the store could not give, and leaves it out', async () => {
    const member = await createMember(t);
    const imageName = await upload(t, await jpegPhoto(50, 50), { token: member.token });
    await t.request({
      method: 'POST',
      url: `/v1/album/memorial_page_id/${member.memorialPageId}/album`,
      token: member.token,
      body: { image_name: imageName, caption: '' },
    });
    await t.ctx.store.delete(imageName);
    const exportId = (await requestExport(t, member)).json().id as string;
    await build(t);
    const link = (await downloadLink(t, member, exportId)).json();
    const files = await unzip((await download(t, link.url)).rawPayload);
    const missing = `memorial_pages/${member.memorialPageId}/album/${imageName.split('/')[1]}`;
    expect(files.has(missing)).toBe(false);
    expect(files.get('README.txt')!.body.toString('utf8')).toContain(missing);
  });

  it('allows 3 requests in 24 hours, one at a time', async () => {
    const member = await createMember(t);
    for (let made = 0; made < 3; made += 1) {
      expect((await requestExport(t, member)).statusCode).toBe(202);
      await build(t);
    }
    const fourth = await requestExport(t, member);
    expect(fourth.statusCode).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await requestExport(t, member)).statusCode).toBe(202);
  });

  it('is withdrawn, its file deleted, when the member reports the request was not theirs', async () => {
    const member = await createMember(t);
    const mailsBefore = t.mailbox.length;
    const exportId = (await requestExport(t, member)).json().id as string;
    await build(t);
    const link = (await downloadLink(t, member, exportId)).json();
    const [row] = await t.ctx.database.db
      .select({ objectName: dataExports.objectName })
      .from(dataExports)
      .where(eq(dataExports.id, exportId));
    const notice = t.mailbox.slice(mailsBefore).find((mail) => mail.to === member.email)!;
    const token = new URL(notice.link!).searchParams.get('token')!;
    const report = await t.request({
      method: 'POST',
      url: '/v1/account/change_report',
      body: { token },
    });
    expect(report.statusCode, report.body).toBe(200);
    expect((await download(t, link.url)).statusCode).toBe(400);
    expect(await build(t)).toMatchObject({ deleted: 1 });
    expect(await t.ctx.store.get(row!.objectName!)).toBeUndefined();
    const [after] = await t.ctx.database.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.id, exportId));
    expect(after).toMatchObject({ status: 'withdrawn', objectName: null });
  });

  it('is withdrawn, its file deleted, when the member deletes their account', async () => {
    const member = await createMember(t);
    const exportId = (await requestExport(t, member)).json().id as string;
    await build(t);
    const link = (await downloadLink(t, member, exportId)).json();
    const deleted = await t.request({
      method: 'DELETE',
      url: '/v1/user',
      token: await freshToken(t, member),
      body: {},
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await download(t, link.url)).statusCode).toBe(400);
    expect((await build(t)).deleted).toBeGreaterThanOrEqual(1);
    const [after] = await t.ctx.database.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.id, exportId));
    expect(after).toMatchObject({ status: 'withdrawn', objectName: null });
  });

  it('is kept 7 days, then its file is deleted', async () => {
    const member = await createMember(t);
    const exportId = (await requestExport(t, member)).json().id as string;
    await build(t);
    const [row] = await t.ctx.database.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.id, exportId));
    t.clock.advance(7 * 24 * 60 * 60 * 1000);
    expect((await build(t)).deleted).toBeGreaterThanOrEqual(1);
    expect(await t.ctx.store.get(row!.objectName!)).toBeUndefined();
    expect((await downloadLink(t, member, exportId)).statusCode).toBe(409);
    const listed = await t.request({
      method: 'GET',
      url: '/v1/data_exports',
      token: await freshToken(t, member),
    });
    expect(listed.json().exports[0]).toMatchObject({ id: exportId, status: 'expired' });
  });

  it('takes again a build stuck for more than 10 minutes', async () => {
    const member = await createMember(t);
    const exportId = (await requestExport(t, member)).json().id as string;
    const db = t.ctx.database.db;
    await db
      .update(dataExports)
      .set({ status: 'building', attempts: 1, updatedAt: t.clock.now() })
      .where(eq(dataExports.id, exportId));
    expect(await build(t)).toMatchObject({ built: 0 });
    t.clock.advance(11 * 60 * 1000);
    expect(await build(t)).toMatchObject({ built: 1 });
    const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId));
    expect(row).toMatchObject({ status: 'ready', attempts: 2 });
  });
});

describe('the S3 store’s streamed writes', () => {
  let bucket: Awaited<ReturnType<typeof startS3Bucket>>;
  let t: TestApp;
  beforeAll(async () => {
    bucket = await startS3Bucket(S3.bucket);
    t = await createTestApp({
      S3_BUCKET: S3.bucket,
      S3_ACCESS_KEY_ID: S3.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3.secretAccessKey,
      S3_ENDPOINT: bucket.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
    });
  });
  afterAll(async () => {
    await t.close();
    await bucket.close();
  });

  const store = () =>
    createS3Store(
      {
        endpoint: bucket.endpoint,
        region: 'ap-northeast-1',
        bucket: S3.bucket,
        accessKeyId: S3.accessKeyId,
        secretAccessKey: S3.secretAccessKey,
        forcePathStyle: true,
      },
      t.clock,
    );

  it('sends a long stream in 8 MiB parts and reads it back whole', async () => {
    const bytes = Buffer.alloc(MULTIPART_PART_BYTES + 12345, 7);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, index) =>
      bytes.subarray(index * 65536, (index + 1) * 65536),
    );
    const name = 'data-exports/AbCdEfGhIjKlMnOpQrSt.zip';
    expect(await store().putStream(name, Readable.from(chunks), 'application/zip')).toBe(
      bytes.length,
    );
    expect(bucket.objects.get(name)!.body.equals(bytes)).toBe(true);
    expect(bucket.uploads.size).toBe(0);
    const read = await store().getStream(name);
    expect(read).toMatchObject({ contentType: 'application/zip', byteSize: bytes.length });
  });

  it('aborts the upload when the stream fails, leaving no object', async () => {
    const name = 'data-exports/ZyXwVuTsRqPoNmLkJiHg.zip';
    async function* failing() {
      yield Buffer.alloc(MULTIPART_PART_BYTES + 1);
      throw new Error('the archive could not be written');
    }
    await expect(
      store().putStream(name, Readable.from(failing()), 'application/zip'),
    ).rejects.toThrow('could not be written');
    expect(bucket.objects.has(name)).toBe(false);
    expect(bucket.uploads.size).toBe(0);
  });

  it('gives a build up after 3 failed attempts', async () => {
    const member = await createMember(t);
    const exportId = (await requestExport(t, member)).json().id as string;
    bucket.state.failing = true;
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await expect(build(t)).rejects.toThrow();
      }
    } finally {
      bucket.state.failing = false;
    }
    const [row] = await t.ctx.database.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.id, exportId));
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(await build(t)).toMatchObject({ built: 0 });
  });
});
