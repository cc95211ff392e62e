import { expect, test, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './support/axe';
import { accessTokenOf, registerApart } from './support/members';
import { VIEWPORTS } from './support/screens';
import { countLayoutShifts } from './support/layoutShifts';

/**
 * The first paint of a public memorial page (docs/app-shell.md, "First paint of a public
 * memorial page"): the server draws the page for a visitor with the app's own components
 * from what the API answers a visitor, carries those answers in the page, and the app,
 * seeded with them, replaces it with the same page without asking the API again.
 */

/** Captions and names are the members' own text: markup and replacement patterns stay text. */
const CAPTION = 'Pochi <b>at</b> the river $& $` & more';

interface PublicPage {
  id: string;
  path: string;
  /** A page of the same member that only its admins may see. */
  privatePath: string;
}

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

async function uploadPhoto(api: APIRequestContext, token: string, name: string): Promise<string> {
  const { url, imageName } = (await call(
    api,
    token,
    'GET',
    `/v1/signed_url?method=PUT&image_name=${name}`,
  )) as { url: string; imageName: string };
  const jpeg = await sharp({
    create: { width: 480, height: 360, channels: 3, background: { r: 90, g: 140, b: 200 } },
  })
    .jpeg()
    .toBuffer();
  const put = await api.put(url, { headers: { 'content-type': 'image/jpeg' }, data: jpeg });
  expect(put.ok()).toBe(true);
  return imageName;
}

/** A member's own page made public with a photo, an album and a history; and a private one. */
async function publicPage(api: APIRequestContext, playwright: Parameters<typeof registerApart>[0]) {
  const member = await registerApart(playwright);
  const { accessToken, memorialPageId } = await accessTokenOf(api, member);
  await call(api, accessToken, 'PATCH', `/v1/memorial_page/${memorialPageId}`, {
    privacy: 'public',
    death_date: '2025-10-01',
    photo_name: await uploadPhoto(api, accessToken, 'portrait.jpg'),
  });
  for (const index of [1, 2]) {
    await call(api, accessToken, 'POST', `/v1/album/memorial_page_id/${memorialPageId}/album`, {
      image_name: await uploadPhoto(api, accessToken, `album-${index}.jpg`),
      caption: `${CAPTION} ${index}`,
    });
  }
  await call(api, accessToken, 'POST', `/v1/history/memorial_page_id/${memorialPageId}/history`, {
    occurred_on: '1980-04-01',
    body: 'Moved to the river town',
  });
  const other = (await call(api, accessToken, 'POST', '/v1/memorial_page', {
    type: 'pet',
    first_name: 'Tama',
    first_name_kana: 'たま',
    animal_kind: 'cat',
    privacy: 'admins',
  })) as { memorialPageId: string };
  return {
    id: memorialPageId,
    path: `/memory/${memorialPageId}`,
    privatePath: `/memory/${other.memorialPageId}`,
  } satisfies PublicPage;
}

test('a visitor gets a public page drawn in the HTML with its answers; a private page and a member get the plain page', async ({
  playwright,
  request,
}) => {
  const page = await publicPage(request, playwright);
  const served = await request.get(page.path, { headers: { accept: 'text/html' } });
  expect(served.status()).toBe(200);
  expect(served.headers()['cache-control']).toBe('no-store');
  const html = await served.text();
  expect(html).toMatch(/<div id="snapshot" inert>.*<h1 id="memory-profile-title">/s);
  expect(html).toContain('<div id="root" hidden></div>');
  expect(html).toMatch(/<link rel="preload" as="image" fetchpriority="high" href="[^"]+\/files\//);
  expect(html).toContain('<script type="application/json" id="shinobu-page-answers">');
  // The caption is escaped text in the markup, and cannot end the JSON's script element.
  expect(html).toContain('Pochi &lt;b&gt;at&lt;/b&gt; the river $&amp; $` &amp; more 1');
  expect(html).not.toContain('<b>at</b>');
  expect(html).toContain('Pochi \\u003cb\\u003eat\\u003c/b\\u003e');

  const hidden = await (
    await request.get(page.privatePath, { headers: { accept: 'text/html' } })
  ).text();
  expect(hidden).not.toContain('id="snapshot"');
  expect(hidden).not.toContain('shinobu-page-answers');
  expect(hidden).not.toContain('Tama');

  const member = await (
    await request.get(page.path, {
      headers: { accept: 'text/html', cookie: 'shinobu.session-token=anything' },
    })
  ).text();
  expect(member).not.toContain('id="snapshot"');
  expect(member).not.toContain('shinobu-page-answers');
});

test('the drawn page shows at once and is replaced by the live one without a shift or a new read', async ({
  browser,
  playwright,
  request,
}) => {
  const memorial = await publicPage(request, playwright);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  const pageReads: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes(memorial.id) && new URL(sent.url()).pathname.startsWith('/v1/')) {
      pageReads.push(sent.url());
    }
  });
  // Hold the app's code back: what shows meanwhile is the server's drawing alone.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(memorial.path, { waitUntil: 'commit' });
  const snapshot = page.locator('#snapshot');
  await expect(snapshot.getByRole('heading', { level: 1, includeHidden: true })).toBeVisible();
  await expect(page.locator('#root')).toBeHidden();
  expect(await snapshot.getAttribute('inert')).not.toBeNull();
  const photo = snapshot.locator('#memory-profile-title').locator('xpath=../..').locator('img');
  await expect(photo).toHaveJSProperty('complete', true);
  const snapshotBoxes = {
    photo: await photo.boundingBox(),
    album: await snapshot.locator('#album').boundingBox(),
    history: await snapshot.locator('#history').boundingBox(),
  };

  const layoutShifts = await countLayoutShifts(page);
  release();

  await expect(snapshot).toHaveCount(0);
  await expect(page.locator('#snapshot-style')).toHaveCount(0);
  await expect(page.locator('#shinobu-page-answers')).toHaveCount(0);
  const root = page.locator('#root');
  await expect(root).toBeVisible();
  await expect(root.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(root.getByText(`${CAPTION} 2`)).toBeVisible();
  const livePhoto = root.locator('#memory-profile-title').locator('xpath=../..').locator('img');
  expect({
    photo: await livePhoto.boundingBox(),
    album: await root.locator('#album').boundingBox(),
    history: await root.locator('#history').boundingBox(),
  }).toEqual(snapshotBoxes);
  expect(await layoutShifts()).toBe(0);
  // The app took the answers from the page: it did not ask the API for them again.
  expect(pageReads).toEqual([]);
  await expectNoSeriousA11yViolations(page);
  await context.close();
});
