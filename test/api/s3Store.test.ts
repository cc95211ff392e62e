/**
 * The S3-compatible store, without an S3 server: what can be checked is the presigned URL
 * itself. Its Signature V4 is verified here independently, the way S3 does (AWS "Authenticating
 * Requests: Using Query Parameters"), which shows the binding to method, bucket, key, type and
 * expiry. The app's uploads are then driven through the real AWS SDK against an in-memory
 * stand-in for a bucket (test/support/s3Bucket.ts).
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { S3Config } from '../../server/config';
import { manualClock } from '../../server/lib/clock';
import { SIGNED_URL_TTL_SECONDS } from '../../server/storage/objectStore';
import { createS3Store } from '../../server/storage/s3Store';
import { createMember } from '../support/members';
import { startS3Bucket } from '../support/s3Bucket';
import { createTestApp } from '../support/testApp';
import { jpegPhoto, putTo, tryUpload } from './memorialSupport';

const CONFIG: S3Config = {
  endpoint: 'http://127.0.0.1:9000',
  region: 'ap-northeast-1',
  bucket: 'memories',
  accessKeyId: 'SHINOBUTESTKEY',
  secretAccessKey: 'shinobu-test-secret',
  forcePathStyle: true,
};
const OBJECT = 'album/AbCdEfGhIjKlMnOpQrSt.jpg';

const encode = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
const hmac = (key: Buffer | string, data: string) =>
  createHmac('sha256', key).update(data).digest();

/** Recomputes a presigned URL's signature for `method` as S3 would on arrival. */
function signatureHolds(
  signedUrl: string,
  method: string,
  secret = CONFIG.secretAccessKey,
): boolean {
  const url = new URL(signedUrl);
  const params = [...url.searchParams.entries()].filter(([name]) => name !== 'X-Amz-Signature');
  const canonicalQuery = params
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .sort()
    .join('&');
  const canonicalRequest = [
    method,
    url.pathname,
    canonicalQuery,
    `host:${url.host}\n`,
    url.searchParams.get('X-Amz-SignedHeaders'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const [, date, region, service] = url.searchParams.get('X-Amz-Credential')!.split('/');
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    url.searchParams.get('X-Amz-Date'),
    `${date}/${region}/${service}/aws4_request`,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const key = ['aws4_request', service!, region!, date!].reduceRight<Buffer | string>(
    (derived, part) => hmac(derived, part),
    `AWS4${secret}`,
  );
  return hmac(key, stringToSign).toString('hex') === url.searchParams.get('X-Amz-Signature');
}

describe('S3 presigned URLs', () => {
  const clock = manualClock('2026-11-22T03:04:05Z');
  const store = createS3Store(CONFIG, clock);

  it('points at the bucket and key with a 15-minute expiry signed at the server time', async () => {
    const url = new URL(await store.signedUrl(OBJECT, 'GET'));
    expect(url.origin).toBe('http://127.0.0.1:9000');
    expect(url.pathname).toBe(`/memories/${OBJECT}`);
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(SIGNED_URL_TTL_SECONDS));
    expect(url.searchParams.get('X-Amz-Date')).toBe('20261122T030405Z');
    expect(url.searchParams.get('X-Amz-Credential')).toBe(
      'SHINOBUTESTKEY/20261122/ap-northeast-1/s3/aws4_request',
    );
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect([...url.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
  });

  it('binds a GET URL to GET, to the key and to the type the name promises', async () => {
    const get = await store.signedUrl(OBJECT, 'GET');
    expect(signatureHolds(get, 'GET')).toBe(true);
    expect(signatureHolds(get, 'PUT')).toBe(false);
    expect(signatureHolds(get, 'GET', 'another-secret')).toBe(false);
    expect(new URL(get).searchParams.get('response-content-type')).toBe('image/jpeg');
    const asHtml = get.replace(
      'response-content-type=image%2Fjpeg',
      'response-content-type=text%2Fhtml',
    );
    expect(asHtml).not.toBe(get);
    expect(signatureHolds(asHtml, 'GET')).toBe(false);
    const thumbnail = new URL(await store.signedUrl('thumbs/AbCdEfGhIjKlMnOpQrSt.webp', 'GET'));
    expect(thumbnail.searchParams.get('response-content-type')).toBe('image/webp');
  });

  it('presigns no upload: only the server writes objects', async () => {
    await expect(store.signedUrl(OBJECT, 'PUT' as unknown as 'GET')).rejects.toThrow(/only GET/);
  });

  it('binds the URL to its object and its expiry', async () => {
    const get = await store.signedUrl(OBJECT, 'GET');
    expect(signatureHolds(get.replace('AbCd', 'ZbCd'), 'GET')).toBe(false);
    expect(signatureHolds(get.replace('X-Amz-Expires=900', 'X-Amz-Expires=9000'), 'GET')).toBe(
      false,
    );
  });

  it('takes a shorter life but never more than 15 minutes', async () => {
    const short = new URL(await store.signedUrl(OBJECT, 'GET', 60));
    expect(short.searchParams.get('X-Amz-Expires')).toBe('60');
    await expect(store.signedUrl(OBJECT, 'GET', SIGNED_URL_TTL_SECONDS + 1)).rejects.toThrow(
      RangeError,
    );
    await expect(store.signedUrl(OBJECT, 'GET', 0)).rejects.toThrow(RangeError);
  });

  it('signs only server-chosen object names', async () => {
    await expect(store.signedUrl('../secrets.json', 'GET')).rejects.toThrow(/invalid object name/);
  });

  it.each([
    [{}, 'http://127.0.0.1:9000'],
    [{ forcePathStyle: false }, 'http://127.0.0.1:9000'],
    [
      { endpoint: 'https://objects.example', forcePathStyle: false },
      'https://memories.objects.example',
    ],
    [
      { endpoint: undefined, forcePathStyle: false },
      'https://memories.s3.ap-northeast-1.amazonaws.com',
    ],
    [{ endpoint: undefined }, 'https://s3.ap-northeast-1.amazonaws.com'],
  ])('names the origin its URLs use (%o)', async (change, origin) => {
    const config = { ...CONFIG, ...change };
    const s3 = createS3Store(config, clock);
    expect(new URL(await s3.signedUrl(OBJECT, 'GET')).origin).toBe(origin);
    expect(await s3.origin()).toBe(origin);
  });
});

describe('the app with S3 configured', () => {
  it('signs read URLs for the bucket and lets the browser reach it under the CSP', async () => {
    const t = await createTestApp({
      S3_BUCKET: CONFIG.bucket,
      S3_ACCESS_KEY_ID: CONFIG.accessKeyId,
      S3_SECRET_ACCESS_KEY: CONFIG.secretAccessKey,
      S3_ENDPOINT: 'https://objects.shinobu.example',
    });
    try {
      const url = new URL(await t.ctx.store.signedUrl(OBJECT, 'GET'));
      expect(url.origin).toBe('https://memories.objects.shinobu.example');
      const response = await t.request({ method: 'GET', url: '/healthz' });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("img-src 'self' data: blob: https://memories.objects.shinobu.example");
      expect(csp).toContain("connect-src 'self' https://memories.objects.shinobu.example");
    } finally {
      await t.close();
    }
  });
});

describe('uploads with S3 configured', () => {
  it('are checked on the server before the bucket sees them, once per URL, and read with their type', async () => {
    const bucket = await startS3Bucket(CONFIG.bucket);
    const t = await createTestApp({
      S3_BUCKET: CONFIG.bucket,
      S3_ACCESS_KEY_ID: CONFIG.accessKeyId,
      S3_SECRET_ACCESS_KEY: CONFIG.secretAccessKey,
      S3_ENDPOINT: bucket.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
    });
    try {
      const member = await createMember(t);
      const html = await tryUpload(t, Buffer.from('<html><script>alert(1)</script></html>'), {
        token: member.token,
        fileName: 'x.html',
        contentType: 'text/html',
      });
      expect(new URL(html.url).origin).toBe('http://localhost:3000');
      expect(html.put.statusCode).toBe(415);
      expect(bucket.objects.size).toBe(0);

      const photo = await jpegPhoto(64, 48);
      const { url, imageName, put } = await tryUpload(t, photo, {
        token: member.token,
        fileName: 'a.jpg',
        contentType: 'text/html',
      });
      expect(put.statusCode).toBe(204);
      expect(bucket.objects.get(imageName)).toMatchObject({ contentType: 'image/jpeg' });
      expect((await putTo(t, url, photo)).statusCode).toBe(403);

      const added = await t.request({
        method: 'POST',
        url: `/v1/album/memorial_page_id/${member.memorialPageId}/album`,
        token: member.token,
        body: { image_name: imageName, caption: '' },
      });
      expect(added.statusCode, added.body).toBe(201);
      const read = new URL(added.json().url);
      expect(read.origin).toBe(bucket.endpoint);
      expect(read.searchParams.get('response-content-type')).toBe('image/jpeg');
      const served = await fetch(read);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
      expect(bucket.objects.size).toBe(2);

      await t.request({
        method: 'DELETE',
        url: `/v1/album/memorial_page_id/${member.memorialPageId}/album/${added.json().id}`,
        token: member.token,
      });
      expect(bucket.objects.size).toBe(0);
    } finally {
      await t.close();
      await bucket.close();
    }
  });
});
