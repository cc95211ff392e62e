import type { APIRequestContext, Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './support/fixtures';
import { hydratedInPlace, markElement } from './support/hydration';
import { accessTokenOf, registerApart, signUpAndSignIn } from './support/members';
import { serverNow } from './support/serverClock';
import { expectFitsAndAccessible, keepScreenshot, VIEWPORTS } from './support/screens';

/**
 * Long lists a member scrolls come a page at a time (docs/memorial.md, docs/timecapsule.md):
 * the first twelve items, then 「もっと見る」 adds the next ones below, in the list's order,
 * until there are no more. Album thumbnails below the first row load lazily.
 */

const PHOTOS = 14;
const ENTRIES = 13;
const LETTERS = 14;

async function call(
  api: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  data?: unknown,
): Promise<unknown> {
  const response = await api.fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
  return response.json();
}

async function uploadPhoto(api: APIRequestContext, token: string, jpeg: Buffer): Promise<string> {
  const { url, imageName } = (await call(
    api,
    token,
    'GET',
    '/v1/signed_url?method=PUT&image_name=photo.jpg',
  )) as { url: string; imageName: string };
  const put = await api.put(url, { headers: { 'content-type': 'image/jpeg' }, data: jpeg });
  expect(put.ok()).toBe(true);
  return imageName;
}

/** Another member's public page with a long album and a long history. */
async function longPublicPage(
  api: APIRequestContext,
  playwright: Parameters<typeof registerApart>[0],
): Promise<string> {
  const owner = await registerApart(playwright);
  const { accessToken, memorialPageId } = await accessTokenOf(api, owner);
  await call(api, accessToken, 'PATCH', `/v1/memorial_page/${memorialPageId}`, {
    privacy: 'public',
  });
  const jpeg = await sharp({
    create: { width: 160, height: 120, channels: 3, background: { r: 120, g: 160, b: 110 } },
  })
    .jpeg()
    .toBuffer();
  for (let index = 1; index <= PHOTOS; index += 1) {
    await call(api, accessToken, 'POST', `/v1/album/memorial_page_id/${memorialPageId}/album`, {
      image_name: await uploadPhoto(api, accessToken, jpeg),
      caption: `写真の${index}枚目`,
    });
  }
  for (let index = 1; index <= ENTRIES; index += 1) {
    await call(api, accessToken, 'POST', `/v1/history/memorial_page_id/${memorialPageId}/history`, {
      occurred_on: `${1950 + index}-04-01`,
      body: `${index}番目のできごと`,
    });
  }
  return memorialPageId;
}

/** Checks the album and history of `page` (on the memorial page), reading more of each. */
async function readMore(page: Page, screenshot: string) {
  const album = page.locator('#album');
  const history = page.locator('#history');
  await expect(album.getByRole('listitem')).toHaveCount(12);
  await expect(history.getByRole('listitem')).toHaveCount(12);
  // The first row paints at once; the thumbnails below it wait until the reader scrolls near.
  await expect(album.getByRole('img').first()).toHaveAttribute('loading', 'eager');
  await expect(album.getByRole('img').nth(11)).toHaveAttribute('loading', 'lazy');
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, screenshot);

  const morePhotosButton = album.getByRole('button', { name: 'アルバムの写真をもっと見る' });
  await expect(morePhotosButton).toHaveText('もっと見る');
  await morePhotosButton.click();
  await expect(album.getByRole('listitem')).toHaveCount(PHOTOS);
  await expect(album.getByRole('listitem').nth(12)).toContainText('写真の13枚目');
  await expect(album.getByRole('listitem').last()).toContainText(`写真の${PHOTOS}枚目`);
  await expect(morePhotosButton).toHaveCount(0);

  await history.getByRole('button', { name: '歩みをもっと見る' }).click();
  await expect(history.getByRole('listitem')).toHaveCount(ENTRIES);
  await expect(history.getByRole('listitem').last()).toContainText(`${ENTRIES}番目のできごと`);
  await expect(history.getByRole('button', { name: '歩みをもっと見る' })).toHaveCount(0);
  await expectFitsAndAccessible(page);
}

async function mobileContext(browser: Browser) {
  return browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
}

test('a member reads more of another member’s album and history with 「もっと見る」', async ({
  browser,
  playwright,
  request,
}) => {
  test.setTimeout(120_000);
  const memorialPageId = await longPublicPage(request, playwright);
  const context = await mobileContext(browser);
  await signUpAndSignIn(context.request);
  const page = await context.newPage();
  await page.goto(`/memory/${memorialPageId}`);
  await readMore(page, 'paged-album-member-mobile');
  await context.close();
});

test('a visitor’s page, rendered on the server, reads its next pages in the browser', async ({
  browser,
  playwright,
  request,
}) => {
  test.setTimeout(120_000);
  const memorialPageId = await longPublicPage(request, playwright);
  const context = await mobileContext(browser);
  const page = await context.newPage();
  await page.goto(`/memory/${memorialPageId}`, { waitUntil: 'commit' });
  // The server drew the first pages; the browser takes them over and reads the next.
  await markElement(page, '#memory-profile-title');
  expect(await hydratedInPlace(page, '#memory-profile-title')).toBe(true);
  await readMore(page, 'paged-album-visitor-mobile');
  await context.close();
});

const JAPAN_OFFSET_MS = 9 * 60 * 60 * 1000;
const japanInput = (instant: number) =>
  new Date(instant + JAPAN_OFFSET_MS).toISOString().slice(0, 16);

test('a member reads more of their unsent letters with 「もっと見る」', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await mobileContext(browser);
  const member = await signUpAndSignIn(context.request);
  const { accessToken } = await accessTokenOf(context.request, member);
  const sendAt = japanInput((await serverNow(context.request)) + 365 * 24 * 60 * 60 * 1000);
  for (let index = 1; index <= LETTERS; index += 1) {
    await call(context.request, accessToken, 'POST', '/v1/time_capsule_letter', {
      title: `${index}通目の手紙`,
      body: '元気にしていますか。',
      recipients: [
        { kind: 'guest', last_name: '未来', first_name: '太郎', email: 'mirai@example.jp' },
      ],
      admin_user_ids: [],
      photo_names: [],
      delivery: { rule: 'date', send_at: sendAt },
    });
  }
  const page = await context.newPage();
  await page.goto('/timecapsule/list');
  const unsent = page.getByRole('region', { name: 'まだ届けていない手紙' });
  await expect(unsent.getByRole('listitem')).toHaveCount(12);
  // Last changed first: the latest letter leads.
  await expect(unsent.getByRole('listitem').first()).toContainText(`${LETTERS}通目の手紙`);
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'paged-letters-mobile');

  const more = unsent.getByRole('button', { name: 'まだ届けていない手紙をもっと見る' });
  await more.click();
  await expect(unsent.getByRole('listitem')).toHaveCount(LETTERS);
  await expect(unsent.getByRole('listitem').last()).toContainText('1通目の手紙');
  await expect(more).toHaveCount(0);
  // The other lists are short: no button under them.
  await expect(page.getByRole('button', { name: /もっと見る/ })).toHaveCount(0);
  await expectFitsAndAccessible(page);
  await context.close();
});
