import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import type { APIRequestContext } from '@playwright/test';
import { unzip } from '../test/support/unzip';
import { expect, test } from './support/fixtures';
import { signUpAndSignIn } from './support/members';
import { expectFitsAndAccessible, VIEWPORTS } from './support/screens';

async function bearerOf(request: APIRequestContext) {
  const session = (await (await request.get('/api/auth/session')).json()) as {
    user: { accessToken: string };
  };
  return { authorization: `Bearer ${session.user.accessToken}` };
}

/** A photo as a phone takes it (landscape), uploaded through the signed URL as the app does. */
async function uploadPhoto(
  request: APIRequestContext,
  headers: Record<string, string>,
  shade: number,
) {
  const signed = await request.get('/v1/signed_url?method=PUT&image_name=walk.jpg', { headers });
  expect(signed.status(), await signed.text()).toBe(200);
  const { url, imageName } = (await signed.json()) as { url: string; imageName: string };
  const photo = await sharp({
    create: { width: 640, height: 480, channels: 3, background: { r: shade, g: 150, b: 90 } },
  })
    .jpeg()
    .toBuffer();
  const put = await request.put(url, { headers: { 'content-type': 'image/jpeg' }, data: photo });
  expect(put.status(), await put.text()).toBeLessThan(300);
  return imageName;
}

/**
 * A family keeps a pet's page: its admin asks for the keepsake on the page at 360 px,
 * downloads it once ready, and the book inside prints, with no Shinobu behind it, as the
 * sheets it promises: the cover, the 年忌法要, the history, one sheet per album photo, and the
 * condolences with the flowers.
 */
test('an admin takes a pet page as a keepsake whose book prints sheet by sheet', async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: VIEWPORTS.mobile,
    acceptDownloads: true,
    bypassCSP: true,
  });
  await signUpAndSignIn(context.request);
  const headers = await bearerOf(context.request);
  const created = await context.request.post('/v1/memorial_page', {
    headers,
    data: {
      type: 'pet',
      first_name: 'ポチ',
      first_name_kana: 'ぽち',
      animal_kind: '柴犬',
      birth_date: '2012-04-01',
      death_date: '2026-03-01',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { memorialPageId } = (await created.json()) as { memorialPageId: string };
  const page = `/v1/memorial_page/${memorialPageId}`;
  for (const [index, shade] of [60, 140, 220].entries()) {
    const added = await context.request.post(`/v1/album/memorial_page_id/${memorialPageId}/album`, {
      headers,
      data: {
        image_name: await uploadPhoto(context.request, headers, shade),
        caption: `散歩${index + 1}`,
      },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  const history = await context.request.post(
    `/v1/history/memorial_page_id/${memorialPageId}/history`,
    {
      headers,
      data: { occurred_on: '2012-05-05', body: 'はじめてのおさんぽ', image_name: null },
    },
  );
  expect(history.status(), await history.text()).toBe(201);
  const condolence = await context.request.post(`${page}/condolences`, {
    headers,
    data: { body: 'たくさんの思い出をありがとう。' },
  });
  expect(condolence.status(), await condolence.text()).toBe(201);
  const { id } = (await condolence.json()) as { id: string };
  const approved = await context.request.patch(`${page}/condolences/${id}`, {
    headers,
    data: { status: 'approved' },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  expect((await context.request.post(`${page}/flowers`, { headers })).status()).toBe(200);

  const screen = await context.newPage();
  await screen.goto(`/memory/${memorialPageId}`);
  const panel = screen.getByRole('region', { name: '記念に残す' });
  await panel.getByRole('button', { name: '記念のファイルを作る' }).click();
  await expect(screen.getByText('受け付けました。', { exact: false })).toBeVisible();
  // The job builds it in the background; the panel asks again while it is being prepared.
  await expect(panel.getByText('ダウンロードできます')).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('list', { name: 'これまでに作った記念のファイル' })).toContainText(
    '山田 花子 さんが作成',
  );
  await expectFitsAndAccessible(screen);
  const downloading = screen.waitForEvent('download');
  await panel.getByRole('button', { name: 'ダウンロードする' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^shinobu-keepsake-\d{8}\.zip$/);

  // Unpacked as a family would, and opened from the disk.
  const folder = path.resolve('test-results/e2e-keepsake');
  const files = await unzip(readFileSync((await download.path())!));
  for (const [name, file] of files) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), file.body);
  }
  const book = await context.newPage();
  await book.goto(pathToFileURL(path.join(folder, 'book.html')).href);
  await expect(book.getByRole('heading', { level: 1 })).toHaveText('ポチ');
  await expect(book.getByRole('img', { name: '散歩3' })).toHaveJSProperty('complete', true);
  expect(
    await book
      .getByRole('img', { name: '散歩3' })
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBe(640);
  const pdf = (await book.pdf({ preferCSSPageSize: true })).toString('latin1');
  const sheets = pdf.match(/\/Type\s*\/Page\b(?!s)/g) ?? [];
  expect(sheets).toHaveLength(7);
  await context.close();
});
