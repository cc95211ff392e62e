/**
 * The auth session in the browser, against the real server: an update sent while the
 * session refetches waits for the refetch and settles (the model path
 * REFETCH → UPDATE → done.refetchSession → done.updateSession).
 */
import { expect, test } from '@playwright/test';
import { signUpAndSignIn } from './support/members';
import { VIEWPORTS } from './support/screens';

test('a password change made while the session refetches settles', async ({ browser }) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
  const member = await signUpAndSignIn(context.request);
  const page = await context.newPage();
  await page.goto('/mypage');
  await expect(page.locator('#mypage-current-password')).toBeEditable();

  // The next read of the session is held on the network until the update has been asked for.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let refetchHeld = false;
  await page.route('**/api/auth/session', async (route) => {
    if (route.request().method() !== 'GET' || refetchHeld) return route.continue();
    refetchHeld = true;
    await released;
    await route.continue();
  });
  const order: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/auth/session' || url.pathname === '/v1/mypage/password')
      order.push(`${request.method()} ${url.pathname}`);
  });

  // Coming back to the tab refetches the session (REFETCH).
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect.poll(() => refetchHeld).toBe(true);

  await page.locator('#mypage-current-password').fill(member.password);
  await page.locator('#mypage-new-password').fill('a brand new passphrase');
  await page.locator('#mypage-new-password-repeat').fill('a brand new passphrase');
  const changed = page.waitForResponse((response) =>
    response.url().endsWith('/v1/mypage/password'),
  );
  await page.getByRole('button', { name: 'パスワードを変更する' }).click();
  expect((await changed).status()).toBe(200);
  // The UPDATE has now reached the session while its refetch is in flight: it must wait,
  // not be dropped, so the form may not report success yet.
  await page.waitForTimeout(300);
  expect(order.filter((entry) => entry === 'POST /api/auth/session')).toEqual([]);
  await expect(page.getByText(/パスワードを変更しました。/)).toBeHidden();

  const askedBeforeRelease = order.length;
  release();
  await expect(page.getByText(/パスワードを変更しました。/)).toBeVisible();
  expect(order.slice(askedBeforeRelease)).toContain('POST /api/auth/session');

  // The fresh session took: this device is still signed in after a reload.
  await page.reload();
  await expect(page.locator('#mypage-current-password')).toBeEditable();
  await expect(page).toHaveURL(/\/mypage$/);
  await context.close();
});
