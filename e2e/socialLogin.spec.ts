import { expect, test, workerServer } from './support/fixtures';
import { startLocalOidcProvider, type LocalOidcProvider } from '../test/support/localOidcProvider';
import { mailedActivationLink, sessionUser } from './support/members';
import { VIEWPORTS, expectFitsAndAccessible, keepScreenshot } from './support/screens';

/**
 * Social sign-in end to end against a real OpenID Connect provider started here,
 * which the worker's e2e server knows as LINE (e2e/support/fixtures.ts): a first sign-in leads into the
 * external-provider registration with the provider's profile prefilled; once the account is
 * the mailed link signs the member in; after signing out, LINE signs them straight in.
 * At 360 px, with axe on every screen of ours on the way.
 */

let provider: LocalOidcProvider;

test.beforeAll(async () => {
  const { line, baseURL } = workerServer();
  provider = await startLocalOidcProvider({
    port: line.port,
    clientId: line.clientId,
    clientSecret: line.clientSecret,
    redirectUris: [`${baseURL}/api/auth/callback/line`],
  });
});

test.afterAll(async () => {
  await provider?.close();
});

test('a first LINE sign-in registers with the profile prefilled; later ones sign straight in', async ({
  browser,
}) => {
  // Three round trips through the provider and a registration: more than the default minute.
  test.slow();
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  const unique = Date.now();
  const email = `line-${unique}@example.jp`;
  provider.signInNext({ sub: `line-user-${unique}`, email, name: 'はなこ' });
  const lineButton = page.getByRole('button', { name: 'LINEでログイン' });

  // The login screen lists the configured provider beside the email form.
  await page.goto('/login');
  await expect(lineButton).toBeVisible();
  await keepScreenshot(page, 'social-login-mobile');
  await expectFitsAndAccessible(page);

  // First sign-in: through the provider to the external-provider registration, prefilled.
  // The server's assertion comes in the address for that one step: the screen takes it (and
  // the profile) out at once, so no history entry keeps it.
  const callback = page.waitForResponse((response) =>
    response.url().includes('/api/auth/callback/line'),
  );
  await lineButton.click();
  const assertion = new URL((await callback).headers().location!).searchParams.get('assertion');
  expect(assertion).toEqual(expect.any(String));
  await expect(page).toHaveURL(/\/register-top\?register=true$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('新規登録');
  await expect(page.getByText('LINE の情報を使って登録します。')).toBeVisible();
  await expect(page.getByLabel('メールアドレス')).toHaveValue(email);
  await expect(page.getByLabel('ニックネーム')).toHaveValue('はなこ');
  await expect(page.getByLabel('パスワード', { exact: true })).toHaveCount(0);
  await keepScreenshot(page, 'social-register-prefilled-mobile');
  await expectFitsAndAccessible(page);

  await page.getByLabel('姓', { exact: true }).fill('佐藤');
  await page.getByLabel('名', { exact: true }).fill('花子');
  await page.getByLabel('せい（ひらがな）').fill('さとう');
  await page.getByLabel('めい（ひらがな）').fill('はなこ');
  await page.getByLabel('お住まいの都道府県').selectOption('北海道');
  await page.getByLabel('生年月日').fill('1960-03-14');
  await page.getByRole('radio', { name: '女性' }).check();
  await page.getByRole('button', { name: '入力内容を確認する' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('入力内容の確認');
  await expect(page.getByText(email)).toBeVisible();
  await expectFitsAndAccessible(page);
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('メールをお送りしました');

  // The registration spent the assertion: it signs no one in, here or in another browser.
  const replayed = `/v1/tmp-return-jwt?assertion=${encodeURIComponent(assertion!)}`;
  expect((await context.request.get(replayed)).status()).toBe(401);
  const elsewhere = await browser.newContext();
  expect((await elsewhere.request.get(replayed)).status()).toBe(401);
  await elsewhere.close();

  // Before the mailed link is opened the account is inactive: LINE cannot sign it in.
  await page.goto('/login');
  await lineButton.click();
  await expect(page).toHaveURL(/\/login\?error=OAuthCallback$/);
  await expect(page.getByRole('alert')).toHaveText(
    'ログインに失敗しました。 通常ログインをお試しください。',
  );
  await expectFitsAndAccessible(page);

  // The link asks for a new LINE sign-in of the identity the registration was made with
  // (the mailbox proves the address, LINE who registered it); back from LINE, the page takes
  // the assertion out of the address, activates the account and signs the member in, with no
  // password of their own.
  await page.goto((await mailedActivationLink(email)).href);
  const completeWithLine = page.getByRole('link', { name: 'LINEでログインして登録を完了する' });
  await expect(completeWithLine).toBeVisible();
  await keepScreenshot(page, 'social-activate-with-line-mobile');
  await expectFitsAndAccessible(page);
  const backFromLine = page.waitForResponse((response) =>
    response.url().includes('/api/auth/callback/line'),
  );
  await completeWithLine.click();
  const activationAssertion = new URL((await backFromLine).headers().location!).searchParams.get(
    'assertion',
  );
  expect(activationAssertion).toEqual(expect.any(String));
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await sessionUser(page)).toMatchObject({ username: 'はなこ' });
  await keepScreenshot(page, 'social-activated-mobile');
  await expectFitsAndAccessible(page);

  // Sign out: the server takes it, and the session is gone.
  await page.goto('/logout');
  const signedOut = page.waitForResponse((response) =>
    response.url().endsWith('/api/auth/signout'),
  );
  await page.getByRole('button', { name: 'ログアウト' }).click();
  expect((await signedOut).status(), 'the sign-out answer').toBe(200);
  await expect(page).toHaveURL(/\/login$/);
  expect(await sessionUser(page)).toBeNull();

  // A later sign-in with LINE logs straight in, to the page first asked for.
  await page.goto('/connection');
  await expect(page).toHaveURL(/\/login$/);
  await lineButton.click();
  await expect(page).toHaveURL(/\/connection$/);
  expect(await sessionUser(page)).toMatchObject({ username: 'はなこ' });
  await context.close();
});
