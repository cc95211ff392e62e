import { expect, test } from './support/fixtures';
import sharp from 'sharp';
import { untilHydrated } from './support/hydration';
import { mailedActivationLink, sessionUser } from './support/members';
import { VIEWPORTS, expectFitsAndAccessible, keepScreenshot } from './support/screens';

/**
 * Accounts end to end: register with a profile picture → the activation link from the mail
 * outbox signs in → log out → a wrong password shows the 401 text → sign in → the page first
 * asked for. At 360 px, with axe on every screen on the way.
 */

const PASSWORD = 'a quiet morning by the sea';

test('register, activate from the mail, sign out, fail, sign in to the page first asked for', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  const email = `hanako-${Date.now()}@example.jp`;

  // Registration: input → confirm → mail sent.
  await page.goto('/register-top?register=true');
  await untilHydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('新規登録');
  await page.getByRole('button', { name: '入力内容を確認する' }).click();
  await expect(page.getByRole('alert').first()).toContainText('入力内容を確認してください。');
  await expectFitsAndAccessible(page);
  await page.getByLabel('ニックネーム').fill('hanako');
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: true }).fill(PASSWORD);
  await page.getByLabel('姓', { exact: true }).fill('山田');
  await page.getByLabel('名', { exact: true }).fill('花子');
  await page.getByLabel('せい（ひらがな）').fill('やまだ');
  await page.getByLabel('めい（ひらがな）').fill('はなこ');
  await page.getByLabel('お住まいの都道府県').selectOption('東京都');
  await page.getByLabel('生年月日').fill('1955-05-05');
  await page.getByRole('radio', { name: '女性' }).check();

  // A profile picture, uploaded before there is an account: a file that is not an image is
  // refused with the reason and nothing typed is lost; a photo shows as a preview.
  const iconField = page.getByLabel('プロフィール画像（任意）');
  await iconField.setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<html>not a picture</html>'),
  });
  await expect(page.getByText('画像ファイル(JPEG・PNG・WebP)を選んでください。')).toBeVisible();
  await expect(page.getByLabel('めい（ひらがな）')).toHaveValue('はなこ');
  const icon = await sharp({
    create: { width: 96, height: 96, channels: 3, background: { r: 90, g: 140, b: 200 } },
  })
    .png()
    .toBuffer();
  await iconField.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: icon });
  const preview = page.getByRole('img', { name: 'hanako さんのプロフィール画像' });
  await expect(preview).toHaveAttribute('src', /^blob:/);
  await expect(page.getByRole('button', { name: 'この画像をやめる' })).toBeVisible();

  await page.getByRole('button', { name: '入力内容を確認する' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('入力内容の確認');
  await expect(page.getByText('1955年5月5日')).toBeVisible();
  await expect(preview).toBeVisible();
  await keepScreenshot(page, 'auth-register-confirm-mobile');
  await expectFitsAndAccessible(page);
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('メールをお送りしました');

  // The link in the mail asks for the password chosen when registering (the mailbox proves
  // the address, the password who registered it); another password is refused, and the
  // right one activates the account and signs the member in: the dashboard.
  await page.goto((await mailedActivationLink(email)).href);
  const activationPassword = page.getByLabel('パスワード', { exact: true });
  await expect(activationPassword).toBeVisible();
  await expect(
    page.getByText('ご登録のときに設定したパスワードを入力して、登録を完了してください。'),
  ).toBeVisible();
  await keepScreenshot(page, 'auth-activate-password-mobile');
  await expectFitsAndAccessible(page);
  await activationPassword.fill('not the password I registered');
  await page.getByRole('button', { name: '登録を完了する' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'パスワードが、このご登録のときに設定されたものと一致しません。',
  );
  expect(await sessionUser(page)).toBeNull();
  await expectFitsAndAccessible(page);
  await page.getByLabel('パスワード', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登録を完了する' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await sessionUser(page)).toMatchObject({ username: 'hanako' });
  // The registration claimed the picture: it is the member's icon now.
  expect(await sessionUser(page)).toMatchObject({ iconUrl: expect.stringMatching(/uploads\//) });

  // A first-time member is welcomed with three first steps until they dismiss it; the spec's
  // memorial_page_id key holds their own page.
  const welcome = page.getByRole('region', { name: 'しのぶへようこそ' });
  await expect(
    welcome.getByRole('link', { name: 'エンディングノートを書きはじめる' }),
  ).toBeVisible();
  await expectFitsAndAccessible(page);
  expect(await page.evaluate(() => localStorage.getItem('memorial_page_id'))).toMatch(
    /^[0-9a-f-]{36}$/,
  );
  await welcome.getByRole('button', { name: '閉じる(次から表示しない)' }).click();
  await page.reload();
  await expect(page.getByRole('region', { name: 'わたしのメモリアルページ' })).toBeVisible();
  await expect(welcome).toHaveCount(0);

  // The link is single use.
  await page.goto((await mailedActivationLink(email)).href);
  await expect(page.getByRole('alert')).toHaveText('ユーザーアクティベーションに失敗しました。');

  // Log out: user and tokens gone.
  await page.goto('/logout');
  await page.getByRole('button', { name: 'ログアウト' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await sessionUser(page)).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('persist:shinobu'))).not.toContain(
    'hanako',
  );

  // A member page asked for while signed out leads to /login and is remembered.
  await page.goto('/connection');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ログイン');
  await untilHydrated(page);

  await page.getByRole('button', { name: 'ログインする' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'メールアドレスとパスワードはどちらも必須です。',
  );
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'ログインする' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'ログインに失敗しました。正しいEメールとパスワードの組み合わせでログインしてください',
  );
  await keepScreenshot(page, 'auth-login-failed-mobile');
  await expectFitsAndAccessible(page);

  await page.getByLabel('パスワード', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'ログインする' }).click();
  await expect(page).toHaveURL(/\/connection$/);
  expect(await sessionUser(page)).toMatchObject({ username: 'hanako' });
  await context.close();
});

test('password reset request and an unusable reset link', async ({ browser }) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  await page.goto('/login');
  await untilHydrated(page);
  await page.getByRole('link', { name: 'パスワードをお忘れの方はこちら' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('パスワードの再設定');
  await page.getByLabel('メールアドレス').fill('nobody@example.jp');
  await page.getByRole('button', { name: '再設定のメールを送る' }).click();
  await expect(page.getByRole('status')).toContainText('パスワード再設定のご案内をお送りしました');
  await expectFitsAndAccessible(page);
  // A mail that never arrived is not a dead end: the page offers to send it again.
  await page.getByRole('button', { name: 'メールをもう一度送る' }).click();
  await expect(page.getByText('もう一度お送りしました。')).toBeVisible();

  await page.goto('/password-reset?token=not-a-token');
  await untilHydrated(page);
  await page.getByLabel('新しいパスワード').fill('another quiet morning');
  await page.getByRole('button', { name: 'パスワードを再設定する' }).click();
  await expect(page.getByRole('alert')).toContainText('このリンクは使えません。');
  await expectFitsAndAccessible(page);
  await context.close();
});

test('an inflow link without its inflowId asks to check the URL', async ({ page }) => {
  await page.goto('/register-top?register=true&inflow=True');
  await expect(page.getByRole('alert')).toHaveText('URLをご確認ください。');
});

test('providers that cannot be fetched lead to the error page', async ({ page }) => {
  await page.route('**/api/auth/providers', (route) => route.abort());
  // The failure is logged with the spec's code.
  const logged = page.waitForRequest(
    (request) =>
      request.url().endsWith('/api/auth/_log') &&
      (request.postData() ?? '').includes('"code":"CLIENT_FETCH_ERROR"'),
  );
  await page.goto('/login');
  await logged;
  await expect(page).toHaveURL(/\/login\?error=Configuration$/);
  await expect(page.getByRole('alert')).toContainText('想定外のエラーが発生しました。');
});
