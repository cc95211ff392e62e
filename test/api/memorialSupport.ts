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

/** Asks /v1/signed_url for a PUT URL (no bearer, as the spec sends it). */
export async function signedPut(t: TestApp, imageName = 'photo.jpg') {
  const response = await t.request({
    method: 'GET',
    url: `/v1/signed_url?method=PUT&image_name=${encodeURIComponent(imageName)}`,
  });
  return response.json() as { url: string; imageName: string };
}

/** Uploads bytes the way the browser does: signed URL, then PUT to it. Answers the name. */
export async function upload(
  t: TestApp,
  body: Buffer,
  options: { fileName?: string; contentType?: string } = {},
): Promise<string> {
  const { url, imageName } = await signedPut(t, options.fileName);
  const target = new URL(url);
  const put = await t.app.inject({
    method: 'PUT',
    url: target.pathname + target.search,
    headers: { 'content-type': options.contentType ?? 'image/jpeg' },
    payload: body,
  });
  if (put.statusCode !== 204) throw new Error(`upload failed: ${put.statusCode} ${put.body}`);
  return imageName;
}

/** Fetches a signed URL of the embedded store through the app. */
export async function fetchSigned(t: TestApp, url: string) {
  const target = new URL(url);
  return t.app.inject({ method: 'GET', url: target.pathname + target.search });
}
