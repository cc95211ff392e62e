import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { registerApart, signInOnLoginScreen } from './support/members';
import { VIEWPORTS } from './support/screens';
import { countLayoutShifts } from './support/layoutShifts';

/**
 * The first paint of /login (docs/app-shell.md "First paint of /login"): the server sends a
 * visitor the login screen prerendered at build time, inert, with the app's root hidden; the
 * app replaces it once it has drawn the screen, and the visitor signs in on the live one. A
 * visitor asking for a member-only page is sent to /login by the server.
 */

test('the served snapshot is the login form, not a loading state', async ({ request }) => {
  const response = await request.get('/login', { headers: { accept: 'text/html' } });
  expect(response.status()).toBe(200);
  expect(response.headers().vary).toContain('Cookie');
  const html = await response.text();
  expect(html).toMatch(/<div id="snapshot" inert>.*<h1>ログイン<\/h1>/s);
  expect(html).toMatch(/<input[^>]*id="login-email"/);
  expect(html).toContain('<div id="root" hidden></div>');
  expect(html).toContain('<style id="snapshot-style">');
  expect(html).not.toContain('Loading...');

  const inflow = await (
    await request.get('/login?inflow=True', { headers: { accept: 'text/html' } })
  ).text();
  expect(inflow).not.toContain('id="snapshot"');
});

test('the snapshot shows at once, is replaced by the live screen without a shift, and the visitor signs in', async ({
  browser,
  playwright,
}) => {
  const member = await registerApart(playwright);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();

  // The social sign-in section (LINE is configured for e2e) appears when the providers have
  // loaded, after the hand-over as before it (it was never in the first paint): left out here,
  // so that any layout shift counted below is the hand-over's.
  await page.route('**/api/auth/providers', (route) => route.fulfill({ json: {} }));
  // Hold the app's code back: what shows meanwhile is the snapshot alone.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/login', { waitUntil: 'commit' });
  const snapshot = page.locator('#snapshot');
  await expect(snapshot.getByRole('heading', { level: 1, includeHidden: true })).toHaveText(
    'ログイン',
  );
  await expect(snapshot).toBeVisible();
  await expect(page.locator('#root')).toBeHidden();
  expect(await snapshot.getAttribute('inert')).not.toBeNull();
  const snapshotBox = await snapshot.locator('form').boundingBox();

  const layoutShifts = await countLayoutShifts(page);
  release();

  await expect(snapshot).toHaveCount(0);
  await expect(page.locator('#snapshot-style')).toHaveCount(0);
  await expect(page.locator('#root')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ログイン');
  const liveBox = await page.locator('#root form').boundingBox();
  expect(liveBox).toEqual(snapshotBox);
  expect(await layoutShifts()).toBe(0);
  await expectNoSeriousA11yViolations(page);

  await signInOnLoginScreen(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await context.close();
});

test('a visitor asking for a member-only page is sent to /login by the server, and comes back after signing in', async ({
  browser,
  playwright,
}) => {
  const member = await registerApart(playwright);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const redirected = await context.request.get('/connection?tab=1', {
    headers: { accept: 'text/html' },
    maxRedirects: 0,
  });
  expect(redirected.status()).toBe(302);
  expect(redirected.headers().location).toBe('/login');

  const page = await context.newPage();
  await page.goto('/connection?tab=1');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator('#snapshot')).toHaveCount(0);
  await signInOnLoginScreen(page, member.email, member.password);
  await expect(page).toHaveURL(/\/connection\?tab=1$/);

  // Signed in (the session cookie): the member-only page is served, no snapshot on /login.
  const served = await context.request.get('/dashboard', {
    headers: { accept: 'text/html' },
    maxRedirects: 0,
  });
  expect(served.status()).toBe(200);
  const login = await (
    await context.request.get('/login', { headers: { accept: 'text/html' } })
  ).text();
  expect(login).not.toContain('id="snapshot"');
  await context.close();
});

test('on a dark system the app starts at once and shows /login (the light snapshot stays hidden)', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'ログイン' })).toBeVisible();
  await expect(page.locator('#snapshot')).toHaveCount(0);
  await expect(page.locator('#root')).toBeVisible();
  await context.close();
});
