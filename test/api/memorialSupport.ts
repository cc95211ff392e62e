import sharp from 'sharp';
import type { TestApp } from '../support/testApp';

/** A real JPEG photo of the given size (a gradient, so it compresses like a photo). */
export async function jpegPhoto(width = 1200, height = 900): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = ((x ^ y) & 0xff) >> 1;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Asks /v1/signed_url for a PUT URL, with the member's bearer token (the upload is then
 * theirs) or without one, as registration does.
 */
export async function signedPut(t: TestApp, token: string | undefined, imageName = 'photo.jpg') {
  const response = await t.request({
    method: 'GET',
    url: `/v1/signed_url?method=PUT&image_name=${encodeURIComponent(imageName)}`,
    ...(token ? { token } : {}),
  });
  if (response.statusCode !== 200) {
    throw new Error(`signed_url answered ${response.statusCode} ${response.body}`);
  }
  return response.json() as { url: string; imageName: string };
}

export interface UploadOptions {
  /** The uploading member's token; undefined uploads without an account. */
  token: string | undefined;
  fileName?: string;
  contentType?: string;
}

/** Sends bytes the way the browser does (signed URL, then PUT) and answers the PUT's answer. */
export async function tryUpload(t: TestApp, body: Buffer, options: UploadOptions) {
  const { url, imageName } = await signedPut(t, options.token, options.fileName);
  const put = await putTo(t, url, body, options.contentType);
  return { url, imageName, put };
}

/** PUTs bytes to a signed upload URL of the app. */
export function putTo(t: TestApp, url: string, body: Buffer, contentType = 'image/jpeg') {
  const target = new URL(url);
  return t.app.inject({
    method: 'PUT',
    url: target.pathname + target.search,
    headers: { 'content-type': contentType },
    payload: body,
  });
}

/** Uploads bytes that must be accepted; answers the object name. */
export async function upload(t: TestApp, body: Buffer, options: UploadOptions): Promise<string> {
  const { imageName, put } = await tryUpload(t, body, options);
  if (put.statusCode !== 204) throw new Error(`upload failed: ${put.statusCode} ${put.body}`);
  return imageName;
}

/** Fetches a signed URL of the embedded store through the app. */
export async function fetchSigned(t: TestApp, url: string) {
  const target = new URL(url);
  return t.app.inject({ method: 'GET', url: target.pathname + target.search });
}
