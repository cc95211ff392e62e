import { randomUUID } from 'node:crypto';
import { expect, test, workerServer } from './support/fixtures';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import {
  accessTokenOf,
  linksMailedTo,
  registerApart,
  registerMember,
  sessionUser,
  signInOnLoginScreen,
  signUpAndSignIn,
  type E2eMember,
} from './support/members';
import { expectFitsAndAccessible, keepScreenshot, VIEWPORTS } from './support/screens';
import { serverNow } from './support/serverClock';

/** A signed-in member in a 360 px browser, with a bearer token for direct API calls. */
async function mobileMember(browser: Browser) {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const member = await signUpAndSignIn(context.request);
  const { userId, accessToken } = await accessTokenOf(context.request, member);
  const page = await context.newPage();
  return { context, page, member, userId, headers: { authorization: `Bearer ${accessToken}` } };
}

/** The date in Japan at `now`, moved by whole years and days, as `YYYY-MM-DD`. */
function tokyoDate(now: number, years: number, days: number): string {
  const date = new Date(now + 9 * 60 * 60 * 1000);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

test('a visitor asking for the dashboard is sent to /login and brought back after signing in', async ({
  browser,
  playwright,
}) => {
  const member = await registerApart(playwright);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await signInOnLoginScreen(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ホーム');
  await context.close();
});

test('dashboard: empty states with next steps, then notifications, news and note progress', async ({
  browser,
  playwright,
}) => {
  const { context, page, userId, headers } = await mobileMember(browser);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ホーム');
  await expect(page.getByRole('link', { name: 'わたしのページを見る' })).toHaveAttribute(
    'href',
    /^\/memory\/[0-9a-f-]+$/,
  );
  await expect(page.getByText('まだ書き始めていません。')).toBeVisible();
  await expect(page.getByRole('link', { name: 'エンディングノートを書き始める' })).toHaveAttribute(
    'href',
    `/endingnote/${userId}`,
  );
  await expect(page.getByText('まだ手紙はありません。')).toBeVisible();
  await expect(page.getByRole('link', { name: '手紙を書く' })).toHaveAttribute(
    'href',
    '/timecapsule',
  );
  await expect(page.getByText('新しいお知らせはありません。')).toBeVisible();
  await expect(page.getByRole('link', { name: 'ユーザーを探す' })).toHaveAttribute(
    'href',
    '/user-search',
  );
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'home-dashboard-empty-mobile');

  // A friend accepts the member's request; the member writes a first line of the note.
  const other = await playwright.request.newContext({ baseURL: workerServer().baseURL });
  const friend = await accessTokenOf(other, await registerMember(other));
  const friendHeaders = { authorization: `Bearer ${friend.accessToken}` };
  const asked = await context.request.post('/v1/connection/requests', {
    headers,
    data: { to_user_id: friend.userId, relationship: 'friend' },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const { requestId } = (await asked.json()) as { requestId: string };
  const accepted = await other.post(`/v1/connection/requests/${requestId}/accept`, {
    headers: friendHeaders,
    data: { relationship: 'friend' },
  });
  expect(accepted.status(), await accepted.text()).toBe(204);
  await other.dispose();
  const section = await context.request.get(`/v1/endingnote/${userId}/sections/self`, {
    headers,
  });
  const { version } = (await section.json()) as { version: number };
  const saved = await context.request.put(`/v1/endingnote/${userId}/sections/self`, {
    headers,
    data: { version, values: { full_name: '山田 花子' } },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  await page.reload();
  await expect(
    page.getByRole('link', { name: /山田 花子 さんがつながり申請を承認しました。/ }),
  ).toBeVisible();
  await expect(page.getByText('山田 花子さんとつながりました')).toBeVisible();
  await expect(page.getByText(/項目中 1項目を記入済み/)).toBeVisible();
  await expect(page.getByRole('link', { name: '続きを書く' })).toBeVisible();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'home-dashboard-with-data-mobile');
  await context.close();
});

test('mourning tab: a page remembered, its coming anniversary and a condolence; dates in the Japanese era', async ({
  browser,
}) => {
  const { context, page, headers } = await mobileMember(browser);
  await page.goto('/mourning');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('偲ぶ');
  await expect(page.getByText(/偲ぶページはまだありません。/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'つながりを見る' })).toBeVisible();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'home-mourning-empty-mobile');

  // A grandfather who died almost a year ago: his first anniversary (一周忌) is coming.
  const created = await context.request.post('/v1/memorial_page', {
    headers,
    data: {
      type: 'other',
      last_name: '山田',
      first_name: '一郎',
      last_name_kana: 'やまだ',
      first_name_kana: 'いちろう',
      birth_date: '1930-04-01',
      // The server's today: another spec may have moved its clock on.
      death_date: tokyoDate(await serverNow(context.request), -1, 20),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { memorialPageId: pageId } = (await created.json()) as { memorialPageId: string };
  const condolence = await context.request.post(`/v1/memorial_page/${pageId}/condolences`, {
    headers,
    data: { body: 'いつも見守ってくれてありがとう。' },
  });
  expect(condolence.status(), await condolence.text()).toBe(201);

  await page.reload();
  const mourningView = `/memory/${pageId}/mourning`;
  await expect(page.getByRole('link', { name: /山田 一郎/ }).first()).toHaveAttribute(
    'href',
    mourningView,
  );
  const anniversary = page.getByRole('link', { name: /山田 一郎さん 一周忌/ });
  await expect(anniversary).toHaveAttribute('href', mourningView);
  await expect(anniversary).toHaveText(/^山田 一郎さん 一周忌（\d{4}年\d{1,2}月\d{1,2}日）$/);
  await expect(page.getByText('いつも見守ってくれてありがとう。')).toBeVisible();
  await expect(
    page.getByRole('link', { name: /山田 花子さんから山田 一郎さんへ/ }),
  ).toHaveAttribute('href', mourningView);
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'home-mourning-mobile');

  // A letter of theirs, dated a year ahead, in the Western calendar first.
  const sendAt = tokyoDate(await serverNow(context.request), 1, 0);
  const letter = await context.request.post('/v1/time_capsule_letter', {
    headers,
    data: {
      title: '一年後の手紙',
      body: 'また桜の季節に。',
      recipients: [
        { kind: 'guest', last_name: '未来', first_name: '花', email: 'hana@example.com' },
      ],
      delivery: { rule: 'date', send_at: `${sendAt}T09:00` },
    },
  });
  expect(letter.status(), await letter.text()).toBe(201);
  await page.goto('/timecapsule/list');
  await expect(page.getByText(/^\d{4}年\d{1,2}月\d{1,2}日 09:00 にお届け$/)).toBeVisible();

  // The Japanese era, chosen on my page: the anniversary, the birthdate and the letter's date.
  await page.goto('/mypage');
  await page.getByRole('radio', { name: /^和暦/ }).check();
  await page.goto('/mourning');
  await expect(page.getByRole('link', { name: /山田 一郎さん 一周忌/ })).toHaveText(
    /^山田 一郎さん 一周忌（令和(\d+|元)年\d{1,2}月\d{1,2}日）$/,
  );
  await page.goto(`/memory/${pageId}`);
  await expect(page.getByText('昭和5年4月1日')).toBeVisible();
  await page.goto('/timecapsule/list');
  await expect(page.getByText(/^令和(\d+|元)年\d{1,2}月\d{1,2}日 09:00 にお届け$/)).toBeVisible();
  await keepScreenshot(page, 'home-japanese-era-mobile');
  await context.close();
});

test('my page: the profile is checked, saved and shown after a reload; theme and search visibility', async ({
  browser,
}) => {
  const { context, page } = await mobileMember(browser);
  await page.goto('/mypage');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('マイページ');
  await expect(page.getByLabel('姓', { exact: true })).toHaveValue('山田');

  await page.getByLabel('姓', { exact: true }).fill('鈴木');
  await page.getByLabel('せい（ひらがな）').fill('スズキ');
  await page.getByRole('button', { name: 'プロフィールを保存する' }).click();
  await expect(page.getByText('ひらがなで入力してください。')).toBeVisible();
  await page.getByLabel('せい（ひらがな）').fill('すずき');
  await page.getByLabel('お住まいの都道府県').selectOption('大阪府');
  await page.getByLabel('生年月日').fill('1960-02-03');
  await page.getByRole('radio', { name: 'その他' }).check();
  await page.getByRole('button', { name: 'プロフィールを保存する' }).click();
  await expect(page.getByText('プロフィールを保存しました。')).toBeVisible();

  const icon = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 120, b: 90 } },
  })
    .png()
    .toBuffer();
  // The upload shows its progress and a cancel; cancelling keeps the form as typed.
  const held = '**/files/uploads/**';
  await page.route(held, () => undefined);
  await page
    .getByLabel('プロフィール画像を選ぶ')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: icon });
  await expect(page.getByRole('progressbar', { name: /^me\.png を送信中 \d+%$/ })).toBeVisible();
  await page.getByRole('button', { name: '送信をやめる' }).click();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByText('プロフィール画像を変更しました。')).toHaveCount(0);
  await expect(page.getByLabel('姓', { exact: true })).toHaveValue('鈴木');
  await page.unroute(held);
  await page
    .getByLabel('プロフィール画像を選ぶ')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: icon });
  await expect(page.getByText('プロフィール画像を変更しました。')).toBeVisible();

  await page.getByRole('radio', { name: 'ダーク' }).check();
  await page.getByLabel('ユーザー検索に表示する').uncheck();
  await expect(page.getByLabel('ユーザー検索に表示する')).toBeEnabled();

  await page.reload();
  await expect(page.getByLabel('姓', { exact: true })).toHaveValue('鈴木');
  await expect(page.getByLabel('せい（ひらがな）')).toHaveValue('すずき');
  await expect(page.getByLabel('お住まいの都道府県')).toHaveValue('大阪府');
  await expect(page.getByLabel('生年月日')).toHaveValue('1960-02-03');
  await expect(page.getByRole('radio', { name: 'その他' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'ダーク' })).toBeChecked();
  await expect(page.getByLabel('ユーザー検索に表示する')).not.toBeChecked();
  await expect(page.getByRole('img', { name: /鈴木/ }).first()).toHaveAttribute('src', /uploads\//);
  await expect(
    page.getByRole('main').getByRole('link', { name: '利用規約 （新しいタブで開きます）' }),
  ).toHaveAttribute('target', '_blank');
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'home-mypage-dark-mobile');

  await page.getByRole('radio', { name: 'ライト' }).check();
  await keepScreenshot(page, 'home-mypage-mobile');
  await context.close();
});

async function changePasswordOnMyPage(page: Page, current: string, next: string) {
  await page.locator('#mypage-current-password').fill(current);
  await page.locator('#mypage-new-password').fill(next);
  await page.locator('#mypage-new-password-repeat').fill(next);
  await page.getByRole('button', { name: 'パスワードを変更する' }).click();
}

test('password change, then sign in with the new password', async ({ browser }) => {
  const { context, page, member } = await mobileMember(browser);
  await page.goto('/mypage');
  await changePasswordOnMyPage(page, 'not my password at all', 'a brand new passphrase');
  await expect(page.getByText('現在のパスワードが正しくありません。')).toBeVisible();
  await changePasswordOnMyPage(page, member.password, 'a brand new passphrase');
  await expect(page.getByText(/パスワードを変更しました。/)).toBeVisible();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'home-password-changed-mobile');

  // This device stays signed in on the fresh session.
  await page.reload();
  await expect(page.getByLabel('姓', { exact: true })).toHaveValue('山田');

  await page.goto('/logout');
  await page.getByRole('button', { name: 'ログアウト' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInOnLoginScreen(page, member.email, member.password);
  await expect(page.getByRole('alert')).toBeVisible();
  await signInOnLoginScreen(page, member.email, 'a brand new passphrase');
  await expect(page).toHaveURL(/\/dashboard$/);
  await context.close();
});

test('the session outlives its access token with no refresh token in page script', async ({
  browser,
}) => {
  const { context, page } = await mobileMember(browser);
  const answers: { url: string; body: string }[] = [];
  page.on('response', async (response) => {
    const url = new URL(response.url()).pathname;
    if (url.startsWith('/api/auth/') || url.startsWith('/v1/')) {
      answers.push({ url, body: await response.text().catch(() => '') });
    }
  });
  await page.goto('/mypage');
  await expect(page.getByLabel('姓', { exact: true })).toHaveValue('山田');

  // What page script can reach: the cookie is httpOnly, the session answer has no refresh token.
  expect(await page.evaluate(() => document.cookie)).not.toContain('session-token');
  const session = await page.evaluate(async () => (await fetch('/api/auth/session')).json());
  expect(session.user.accessToken).toEqual(expect.any(String));
  expect(JSON.stringify(session)).not.toMatch(/refresh/i);
  const html = await (
    await context.request.get('/mypage', { headers: { accept: 'text/html' } })
  ).text();
  const inline = /<script type="application\/json" id="shinobu-session">([^<]*)<\/script>/.exec(
    html,
  )?.[1];
  expect(JSON.parse(inline!).user.accessToken).toEqual(expect.any(String));
  expect(inline).not.toMatch(/refresh/i);

  // The access token expires (15 minutes): the next call refreshes through the cookie.
  const moved = await context.request.post('/v1/test/clock', { data: { advance_ms: 16 * 60_000 } });
  expect(moved.status()).toBeLessThan(300);
  const refreshed = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/auth/refresh',
  );
  await page.goto('/dashboard');
  expect((await refreshed).status()).toBe(200);
  await page.goto('/mypage');
  await expect(page.getByLabel('姓', { exact: true })).toHaveValue('山田');
  expect(answers.some((answer) => answer.url === '/v1/refresh')).toBe(false);
  for (const answer of answers) expect(answer.body, answer.url).not.toMatch(/refreshToken/);
  await context.close();
});

async function expectSignIn(request: APIRequestContext, member: E2eMember, status: number) {
  const response = await request.post('/v1/login', {
    form: { username: member.email, password: member.password },
  });
  expect(response.status()).toBe(status);
}

test('email change confirmed from the mail sent to the new address', async ({ browser }) => {
  const { context, page, member } = await mobileMember(browser);
  const newEmail = `moved-${randomUUID()}@example.jp`;
  await page.goto('/mypage');
  await page.getByLabel('新しいメールアドレス').fill(newEmail);
  await page.locator('#mypage-email-password').fill(member.password);
  await page.getByRole('button', { name: '確認メールを送る' }).click();
  await expect(
    page.getByText(`${newEmail} に確認メールを送りました。`, { exact: false }),
  ).toBeVisible();

  const confirmLinks = () => linksMailedTo(newEmail, /^\/mypage\/email-confirm\?/);
  await expect.poll(() => confirmLinks().length).toBeGreaterThan(0);
  const link = confirmLinks()[0]!;
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('メールアドレスの変更');
  await expectFitsAndAccessible(page);
  await page.getByRole('button', { name: '変更を完了する' }).click();
  await expect(
    page.getByText(`メールアドレスを ${newEmail} に変更しました。`, { exact: false }),
  ).toBeVisible();
  await keepScreenshot(page, 'home-email-changed-mobile');

  // The link works once; the account now signs in with the new address only.
  await page.reload();
  await page.getByRole('button', { name: '変更を完了する' }).click();
  await expect(page.getByText(/このリンクは使用済みか/)).toBeVisible();
  await expectSignIn(context.request, { ...member, email: newEmail }, 200);
  await expectSignIn(context.request, member, 401);
  await page.goto('/mypage');
  await expect(page.getByText(`現在のメールアドレス：${newEmail}`)).toBeVisible();
  await context.close();
});

test('leaving: a failed deletion keeps everything, a confirmed one signs out for good', async ({
  browser,
}) => {
  const { context, page, member } = await mobileMember(browser);
  await page.goto('/mypage');
  await page.evaluate(() => localStorage.setItem('isFirstTimeUser', 'false'));

  // Asked first; keeping the account changes nothing.
  await page.getByRole('button', { name: '退会する' }).click();
  await expect(page.getByRole('alert')).toContainText('本当に退会しますか');
  await expectFitsAndAccessible(page);
  await page.getByRole('button', { name: 'やめる' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // The network drops the deletion: the spec's failure text, still signed in.
  await page.route('**/v1/user', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: '退会する' }).click();
  await page.getByRole('button', { name: '退会する' }).last().click();
  await expect(page.getByText('解約に失敗しました。')).toBeVisible();
  expect(await sessionUser(page)).not.toBeNull();
  await page.unroute('**/v1/user');

  await page.getByRole('button', { name: '退会する' }).last().click();
  // Leaving is a sensitive change: the current password is asked for.
  const proof = page.getByRole('dialog', { name: 'ご本人確認' });
  await proof.getByLabel('現在のパスワード').fill(member.password);
  await expectFitsAndAccessible(page);
  await proof.getByRole('button', { name: '確認して変更する' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await sessionUser(page)).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('isFirstTimeUser'))).toBeNull();

  const login = await context.request.post('/v1/login', {
    form: { username: member.email, password: member.password },
  });
  expect(login.status()).toBe(401);
  await context.close();
});
