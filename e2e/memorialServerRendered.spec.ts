import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, workerServer } from './support/fixtures';
import type { APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { distDir } from '../server/lib/paths';
import { expectNoSeriousA11yViolations } from './support/axe';
import { holdAppCode, hydratedInPlace, hydrationErrors, markElement } from './support/hydration';
import { accessTokenOf, registerApart } from './support/members';
import { VIEWPORTS } from './support/screens';
import { countLayoutShifts } from './support/layoutShifts';

/**
 * A public memorial page rendered on the server for a visitor (docs/app-shell.md, "Server
 * rendering"): the app's own components drawn from what the API answers a visitor, with the
 * page's title and share preview; the app, seeded with the same answers, hydrates it in place
 * without asking the API again. A page a visitor may not see gives a crawler nothing.
 */

/**
 * What a visitor who reads a page never uses, by the source modules a script is built from
 * (its source map): the admins' editing, signing in, the API document's examples and the
 * contract's schemas they sit in, the API client, the statechart inspector and the statecharts
 * of member flows. The entry's own charts still load for everyone: the session's (with its
 * token refresh), which tells a visitor from a member, and the client state's (with the
 * pet-admin setting it keeps).
 */
const NOT_FOR_A_VISITOR: Record<string, RegExp> = {
  editing:
    /src\/screens\/memory\/(AlbumEditing|HistoryEditing|ProfileEditor|ShareSection|SettingsSection)\.tsx$|src\/components\/upload\//,
  'signing in': /src\/screens\/(login|registerTop|activate|passwordReset)\//,
  'API examples and schemas': /src\/contract\/(examples\.json|[a-zA-Z]+\.ts)$|node_modules\/zod\//,
  'API client': /node_modules\/axios\//,
  inspector: /node_modules\/@statelyai\/inspect\//,
  'member flows': /src\/machines\/(?!authSession|tokenRefresh|clientState|petAdmin)[a-zA-Z]+\.ts$/,
};

/**
 * The source modules the scripts at `paths` (under /assets/) are built from, read from the
 * source maps the build leaves beside them (never served). The bundler's own helpers (its
 * runtime, the preload helper) have none.
 */
function sourcesOf(paths: string[]): string[] {
  return paths.flatMap((assetPath) => {
    const map = path.join(distDir, `${assetPath}.map`);
    if (!existsSync(map)) return [];
    return (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
  });
}

/** Of `sources`, those a visitor should not load, by what they are for. */
function notForAVisitor(sources: string[]): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(NOT_FOR_A_VISITOR)
      .map(([what, pattern]) => [what, sources.filter((source) => pattern.test(source))] as const)
      .filter(([, found]) => found.length > 0),
  );
}

/** Captions and names are the members' own text: markup and replacement patterns stay text. */
const CAPTION = 'Pochi <b>at</b> the river $& $` & more';

interface PublicPage {
  id: string;
  path: string;
  /** The person's name as the page shows it. */
  name: string;
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
  const shown = (await call(api, accessToken, 'GET', `/v1/memorial_page/${memorialPageId}`)) as {
    lastName: string;
    firstName: string;
  };
  return {
    id: memorialPageId,
    path: `/memory/${memorialPageId}`,
    name: `${shown.lastName} ${shown.firstName}`.trim(),
    privatePath: `/memory/${other.memorialPageId}`,
  } satisfies PublicPage;
}

test('a visitor gets a public page rendered with its title and share preview; a private page and a member get the plain page', async ({
  playwright,
  request,
}) => {
  const page = await publicPage(request, playwright);
  const served = await request.get(page.path, { headers: { accept: 'text/html' } });
  expect(served.status()).toBe(200);
  expect(served.headers()['cache-control']).toBe('no-cache');
  const html = await served.text();
  const title = `${page.name}のメモリアルページ｜偲ぶ`;
  expect(html).toContain(`<title>${title}</title>`);
  expect(html).toMatch(/<div id="root">.*<h1 id="memory-profile-title">/s);
  expect(html).toContain('<script type="application/json" id="shinobu-page-data">');
  // The page photo is asked for before the app's scripts; the screen's own module with them.
  const photoPreload = html.indexOf('<link rel="preload" as="image"');
  expect(photoPreload).toBeGreaterThan(0);
  expect(photoPreload).toBeLessThan(html.indexOf('<script type="module"'));
  expect(html).toMatch(
    /<link rel="modulepreload" crossorigin href="\/assets\/MemoryScreen-[^"]+\.js">/,
  );
  // A visitor edits nothing: the admins' editing code is not among them.
  expect(html).not.toMatch(/\/assets\/(AlbumEditing|HistoryEditing|ImageFileField)-/);
  // Nor what only a member or the API document uses.
  const named = [...html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="(\/assets\/[^"]+\.js)"/g)];
  expect(named.length).toBeGreaterThan(1);
  expect(html).not.toMatch(/\/assets\/examples-/);
  expect(notForAVisitor(sourcesOf(named.map((match) => match[1]!)))).toEqual({});
  const meta = (key: string) =>
    new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];
  const base = workerServer().baseURL;
  expect(meta('og:title')).toBe(title);
  expect(meta('og:description')).toContain(page.name);
  expect(meta('description')).toBe(meta('og:description'));
  expect(meta('og:url')).toBe(`${base}${page.path}`);
  expect(meta('twitter:card')).toBe('summary_large_image');
  const image = meta('og:image')!;
  expect(image).toBe(`${base}/v1/memorial_page/${page.id}/share_image.jpg`);
  // A crawler fetches the preview without a cookie, at the size LINE and X show.
  const preview = await playwright.request.newContext();
  const fetched = await preview.get(image);
  expect(fetched.status()).toBe(200);
  expect(fetched.headers()['content-type']).toBe('image/jpeg');
  const { width, height } = await sharp(await fetched.body()).metadata();
  expect({ width, height }).toEqual({ width: 1200, height: 630 });
  // The caption is escaped text in the markup, and cannot end the JSON's script element.
  expect(html).toContain('Pochi &lt;b&gt;at&lt;/b&gt; the river $&amp; $` &amp; more 1');
  expect(html).not.toContain('<b>at</b>');
  expect(html).toContain('Pochi \\u003cb\\u003eat\\u003c/b\\u003e');

  const hidden = await (
    await request.get(page.privatePath, { headers: { accept: 'text/html' } })
  ).text();
  expect(hidden).toContain('<div id="root"><p role="status">読み込んでいます…</p></div>');
  expect(hidden).not.toContain('shinobu-page-data');
  expect(hidden).not.toContain('og:');
  expect(hidden).not.toContain('Tama');
  const privateId = page.privatePath.split('/').at(-1)!;
  expect((await preview.get(`/v1/memorial_page/${privateId}/share_image.jpg`)).status()).toBe(404);
  await preview.dispose();

  const member = await (
    await request.get(page.path, {
      headers: { accept: 'text/html', cookie: 'shinobu.session-token=anything' },
    })
  ).text();
  expect(member).not.toContain('shinobu-page-data');
});

test('the page shows at once and is hydrated in place, without a shift or a new read', async ({
  browser,
  playwright,
  request,
}) => {
  const memorial = await publicPage(request, playwright);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  const errors = hydrationErrors(page);
  const pageReads: string[] = [];
  const editingCode: string[] = [];
  const scripts: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes(memorial.id) && new URL(sent.url()).pathname.startsWith('/v1/')) {
      pageReads.push(sent.url());
    }
    if (/\/assets\/(AlbumEditing|HistoryEditing|ImageFileField)-/.test(sent.url())) {
      editingCode.push(sent.url());
    }
    if (/\/assets\/[^/]+\.js$/.test(sent.url())) scripts.push(new URL(sent.url()).pathname);
  });
  const release = await holdAppCode(page);
  await page.goto(memorial.path, { waitUntil: 'commit' });
  const root = page.locator('#root');
  await expect(root.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(root.getByText(`${CAPTION} 2`)).toBeVisible();
  const photo = root.locator('#memory-profile-title').locator('xpath=../..').locator('img');
  await expect(photo).toHaveJSProperty('complete', true);
  const boxes = async () => ({
    photo: await photo.boundingBox(),
    album: await root.locator('#album').boundingBox(),
    history: await root.locator('#history').boundingBox(),
  });
  const serverBoxes = await boxes();
  await markElement(page, '#memory-profile-title');

  const layoutShifts = await countLayoutShifts(page);
  release();
  expect(await hydratedInPlace(page, '#memory-profile-title')).toBe(true);
  await expect(page.locator('#shinobu-page-data')).toHaveCount(0);
  expect(await boxes()).toEqual(serverBoxes);
  expect(await layoutShifts()).toBe(0);
  expect(errors).toEqual([]);
  await expect(page).toHaveTitle(`${memorial.name}のメモリアルページ｜偲ぶ`);
  // The app took the answers from the page: it did not ask the API for them again.
  expect(pageReads).toEqual([]);
  // Nor did it load the admins' editing code, or anything else a reader does not use.
  expect(editingCode).toEqual([]);
  expect(scripts.filter((script) => /\/assets\/examples-/.test(script))).toEqual([]);
  expect(notForAVisitor(sourcesOf(scripts))).toEqual({});
  await expectNoSeriousA11yViolations(page);
  await context.close();
});

test('with JavaScript off, and on a dark system, the page is there to read', async ({
  browser,
  playwright,
  request,
}) => {
  const memorial = await publicPage(request, playwright);
  const context = await browser.newContext({
    viewport: VIEWPORTS.mobile,
    javaScriptEnabled: false,
    colorScheme: 'dark',
  });
  const page = await context.newPage();
  await page.goto(memorial.path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText(`${CAPTION} 1`)).toBeVisible();
  await expect(page.getByText('Moved to the river town')).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
    'rgb(18, 27, 36)',
  );
  await expect(page).toHaveTitle(`${memorial.name}のメモリアルページ｜偲ぶ`);
  await context.close();
});
