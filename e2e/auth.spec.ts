import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { VIEWPORTS, keepScreenshot } from './support/screens';

/**
 * Accounts end to end (issue 3): register → the activation link from the mail outbox →
 * signed in → log out → a wrong password shows the 401 text → sign in → the page first
 * asked for. At 360 px, with axe on every screen on the way.
 */

const PASSWORD = 'a quiet morning by the sea';

/** The body of an .eml as text, whatever transfer encoding the mailer chose. */
function decodedBody(eml: string): string {
  const [headers = '', ...rest] = eml.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(eml)) {
    return eml
      .split(/\r?\n\r?\n/)
      .slice(1)
      .map((part) => {
        try {
          return Buffer.from(part.replace(/\s+/g, ''), 'base64').toString('utf8');
        } catch {
          return part;
        }
      })
      .join('\n');
  }
  if (/content-transfer-encoding:\s*quoted-printable/i.test(eml)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return `${headers}\n${body}`;
}

/** The activation link of the newest mail to `email` in the server's outbox. */
async function activationLinkFor(email: string): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR!, 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const files = readdirSync(outbox, { withFileTypes: true })
          .filter((entry) => entry.name.endsWith('.eml'))
          .map((entry) => entry.name)
          .sort();
        for (const file of files.reverse()) {
          const text = decodedBody(readFileSync(path.join(outbox, file), 'utf8'));
          const found = /https?:\/\/\S+\/activate\?\S+/.exec(text)?.[0];
          if (found && new URL(found).searchParams.get('email') === email) {
            link = found;
            return true;
          }
        }
        return false;
      },
      { message: `activation mail to ${email}` },
    )
    .toBe(true);
  return link!;
}

async function sessionUser(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const session = (await (await fetch('/api/auth/session')).json()) as { user?: unknown } | null;
    return session?.user ?? null;
  });
}

async function expectFitsAndAccessible(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
}

test('register, activate from the mail, sign out, fail, sign in to the page first asked for', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  const email = `hanako-${Date.now()}@example.jp`;

  // Registration: input → confirm → mail sent.
  await page.goto('/register-top?register=true');
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
  await page.getByRole('button', { name: '入力内容を確認する' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('入力内容の確認');
  await expect(page.getByText('1955年5月5日')).toBeVisible();
  await keepScreenshot(page, 'auth-register-confirm-mobile');
  await expectFitsAndAccessible(page);
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('メールをお送りしました');

  // The link in the mail activates the account; the member signs in right there.
  await page.goto(await activationLinkFor(email));
  await expect(page.getByText('登録が完了しました。')).toBeVisible();
  await expectFitsAndAccessible(page);
  await page.getByLabel('パスワード', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'ログインする' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await sessionUser(page)).toMatchObject({ username: 'hanako' });

  // The link is single use.
  const link = await activationLinkFor(email);
  await page.goto(link);
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
  await page.getByRole('link', { name: 'パスワードをお忘れの方はこちら' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('パスワードの再設定');
  await page.getByLabel('メールアドレス').fill('nobody@example.jp');
  await page.getByRole('button', { name: '再設定のメールを送る' }).click();
  await expect(page.getByRole('status')).toContainText('パスワード再設定のご案内をお送りしました');
  await expectFitsAndAccessible(page);

  await page.goto('/password-reset?token=not-a-token');
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
