import { expect, test, workerServer } from './support/fixtures';
import { linksMailedTo, registerApart, signInOnLoginScreen } from './support/members';
import { VIEWPORTS, expectFitsAndAccessible, keepScreenshot } from './support/screens';

/**
 * A stranger cannot keep a member out: one address may add only a share of an account's
 * lock, but strangers' wrong guesses from many addresses lock it (100 an hour); the login
 * screen shows the spec's 423 text and says a link was mailed, and the link from the mail
 * signs the owner in at once. At 360 px, with axe on both screens.
 */

/** NIST SP 800-63B §5.2.2, the account's cap (server/domain/accounts/loginThrottle.ts). */
const CAP = 100;

test('the owner of an account strangers locked signs in from the mailed link', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const member = await registerApart(playwright);

  // The strangers, each from an address of their own (named in X-Forwarded-For, which the
  // e2e server reads from the loopback): their guesses, all at once, fill the account's cap.
  const stranger = await playwright.request.newContext({ baseURL: workerServer().baseURL });
  const guesses = await Promise.all(
    Array.from({ length: CAP + 1 }, (_, i) =>
      stranger.post('/v1/login', {
        headers: { 'x-forwarded-for': `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}` },
        form: { username: member.email, password: `a stranger's guess ${i}` },
      }),
    ),
  );
  const statuses = guesses.map((response) => response.status());
  expect(statuses.filter((status) => status === 401)).toHaveLength(CAP);
  expect(statuses.filter((status) => status === 423)).toHaveLength(1);
  await stranger.dispose();

  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  await page.goto('/login');
  await signInOnLoginScreen(page, member.email, member.password);
  await expect(page.getByRole('alert')).toHaveText(
    'アカウントがロックされています。パスワードリセットを行うか、しばらく時間をおいてから再度お試しください。',
  );
  await expect(page.getByRole('status')).toContainText(
    'ロック中でもログインできるリンクをご登録のメールアドレスにお送りしました。',
  );
  await keepScreenshot(page, 'auth-locked-mobile');
  await expectFitsAndAccessible(page);

  // The mail: one link to the login screen that gets past the lock.
  await expect.poll(() => linksMailedTo(member.email, /^\/login\?unlock=/).length).toBe(1);
  const [link] = linksMailedTo(member.email, /^\/login\?unlock=/);
  await page.goto(link!.pathname + link!.search);
  await expect(page.getByText('ロック中でもログインできるリンクから開きました。')).toBeVisible();
  await expectFitsAndAccessible(page);
  await signInOnLoginScreen(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await context.close();
});
