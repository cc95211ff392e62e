import { expect, test } from './support/fixtures';
import { expectNoSeriousA11yViolations } from './support/axe';
import { holdAppCode, hydratedInPlace, hydrationErrors, markElement } from './support/hydration';
import { registerApart, signInOnLoginScreen } from './support/members';
import { VIEWPORTS } from './support/screens';
import { countLayoutShifts } from './support/layoutShifts';

/**
 * /login rendered on the server for a visitor (docs/app-shell.md "Server rendering"): the
 * login screen in the page's HTML, readable and styled before any script runs, hydrated in
 * place by the app. A visitor asking for a member-only page is sent to /login by the server.
 */

test('the served page is the login form, titled, not a loading state', async ({ request }) => {
  const response = await request.get('/login?callbackUrl=%2Fmypage', {
    headers: { accept: 'text/html' },
  });
  expect(response.status()).toBe(200);
  expect(response.headers().vary).toContain('Cookie');
  const html = await response.text();
  expect(html).toContain('<title>ログイン｜偲ぶ</title>');
  expect(html).toMatch(/<div id="root">.*<h1>ログイン<\/h1>/s);
  expect(html).toMatch(/<input[^>]*id="login-email"/);
  expect(html).toContain('<style data-styled="true"');
  expect(html).toContain('<script type="application/json" id="shinobu-page-data">');
  expect(html).not.toContain('Loading...');
  expect(html).not.toContain('inert');
  // Without a script of its own in the page: the policy allows none.
  expect(html).not.toMatch(/<script>|<script (?!type="module"|type="application\/json")/);
});

test('the page shows at once, is hydrated in place without a shift, and the visitor signs in', async ({
  browser,
  playwright,
}) => {
  const member = await registerApart(playwright);
  // axe is added to the page as a script of its own, which the policy would refuse.
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  const errors = hydrationErrors(page);
  // The social sign-in section appears when the providers have loaded (it is not in the
  // server's page): left out here, so that any layout shift counted below is the hydration's.
  await page.route('**/api/auth/providers', (route) => route.fulfill({ json: {} }));
  const release = await holdAppCode(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ログイン');
  await expect(page.locator('#login-email')).toBeVisible();
  await expect(page).toHaveTitle('ログイン｜偲ぶ');
  const form = page.locator('#root form');
  const serverBox = await form.boundingBox();
  await markElement(page, '#root form');

  const layoutShifts = await countLayoutShifts(page);
  release();
  expect(await hydratedInPlace(page, '#root form')).toBe(true);
  expect(await form.boundingBox()).toEqual(serverBox);
  expect(await layoutShifts()).toBe(0);
  expect(errors).toEqual([]);
  await expectNoSeriousA11yViolations(page);

  await signInOnLoginScreen(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page).toHaveTitle('ホーム｜偲ぶ');
  await context.close();
});

test('what a visitor types before the app has hydrated the page is kept, and signs in', async ({
  browser,
  playwright,
}) => {
  const member = await registerApart(playwright);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
  const page = await context.newPage();
  const errors = hydrationErrors(page);
  const release = await holdAppCode(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const email = page.locator('#login-email');
  const password = page.locator('#login-password');
  await expect(email).toBeVisible();
  // Typed key by key into the server's page while the app's code is still on its way.
  await email.pressSequentially(member.email);
  await password.pressSequentially(member.password);
  await markElement(page, '#login-email');
  const hydratedYet = () =>
    page.evaluate(() =>
      Object.keys(document.querySelector('#root form')!).some((key) =>
        key.startsWith('__reactFiber'),
      ),
    );
  expect(await hydratedYet()).toBe(false);

  release();
  expect(await hydratedInPlace(page, '#login-email')).toBe(true);
  await expect(email).toHaveValue(member.email);
  await expect(password).toHaveValue(member.password);
  expect(errors).toEqual([]);

  await page.getByRole('button', { name: 'ログインする' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page).toHaveTitle('ホーム｜偲ぶ');
  await context.close();
});

test('a visitor asking for a member-only page is sent to /login by the server, and comes back after signing in', async ({
  browser,
  playwright,
}) => {
  const member = await registerApart(playwright);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
  const redirected = await context.request.get('/connection?tab=1', {
    headers: { accept: 'text/html' },
    maxRedirects: 0,
  });
  expect(redirected.status()).toBe(302);
  expect(redirected.headers().location).toBe('/login');

  const page = await context.newPage();
  await page.goto('/connection?tab=1');
  await expect(page).toHaveURL(/\/login$/);
  await signInOnLoginScreen(page, member.email, member.password);
  await expect(page).toHaveURL(/\/connection\?tab=1$/);
  await expect(page).toHaveTitle('つながり｜偲ぶ');

  // Signed in (the session cookie): pages are the app's own, rendered in the browser.
  const served = await context.request.get('/dashboard', {
    headers: { accept: 'text/html' },
    maxRedirects: 0,
  });
  expect(served.status()).toBe(200);
  const login = await (
    await context.request.get('/login', { headers: { accept: 'text/html' } })
  ).text();
  expect(login).toContain('<div id="root"><p role="status">読み込んでいます…</p></div>');
  expect(login).not.toContain('shinobu-page-data');
  await context.close();
});

test('on a dark system the page opens dark, before any script, and stays so once hydrated', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, colorScheme: 'dark' });
  const page = await context.newPage();
  const errors = hydrationErrors(page);
  const release = await holdAppCode(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1, name: 'ログイン' })).toBeVisible();
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await background()).toBe('rgb(18, 27, 36)');
  await markElement(page, '#root form');
  release();
  expect(await hydratedInPlace(page, '#root form')).toBe(true);
  expect(await background()).toBe('rgb(18, 27, 36)');
  expect(errors).toEqual([]);
  await context.close();
});

test('with JavaScript off the login screen is there to read', async ({ browser }) => {
  const context = await browser.newContext({
    viewport: VIEWPORTS.mobile,
    javaScriptEnabled: false,
  });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'ログイン' })).toBeVisible();
  await expect(page.locator('#login-email')).toBeVisible();
  await expect(page).toHaveTitle('ログイン｜偲ぶ');
  await context.close();
});
