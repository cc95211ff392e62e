import { randomUUID } from 'node:crypto';
import { startLocalOidcProvider, type LocalOidcProvider } from '../test/support/localOidcProvider';
import { advanceServerClock, bearer, connectAsFamily, DAY_MS } from './support/deathCases';
import { confirmDeathThroughTheApi } from './support/deathRelease';
import { registerLineMember } from './support/lineMembers';
import { accessTokenOf, linksMailedTo, signUpAndSignIn } from './support/members';
import { expectFitsAndAccessible, keepScreenshot, VIEWPORTS } from './support/screens';
import { expect, test, workerServer } from './support/fixtures';

/**
 * The living member who signs in only with LINE, whose death was confirmed by mistake: their
 * LINE sign-in after the release tells them what happened and mails the link; the link's page
 * asks them to sign in with LINE again (someone else's LINE account is refused), then restores
 * the account; opened again, the spent link says so at once. At 360 px.
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

test('journey: a LINE-only member released by mistake proves themselves with LINE and restores the account', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const watcherContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const memberContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const watcher = await signUpAndSignIn(watcherContext.request);
  const admin = await accessTokenOf(watcherContext.request, watcher);
  const memberApi = await playwright.request.newContext({ baseURL: workerServer().baseURL });
  const account = { sub: `line-${randomUUID()}`, email: `line-${randomUUID()}@example.jp` };
  const own = await registerLineMember(memberApi, provider, account);

  // The member names their family connection as 見守り役 (a fresh sign-in stands in for a
  // password they do not have).
  await connectAsFamily(memberApi, own, watcherContext.request, admin);
  const named = await memberApi.put('/v1/fpos/death_settings', {
    headers: bearer(own.accessToken),
    data: { rule: 'any_one', administrator_user_ids: [admin.userId], check_in_period_days: null },
  });
  expect(named.status(), await named.text()).toBe(200);

  // A week later the 見守り役 reports and confirms; the grace period runs out.
  await advanceServerClock(memberApi, 7 * DAY_MS + 60_000);
  const reporter = await accessTokenOf(watcherContext.request, watcher);
  const reported = await watcherContext.request.post('/v1/fpos/report_death_suspected', {
    headers: bearer(reporter.accessToken),
    data: { user_id: own.userId },
  });
  expect(reported.status(), await reported.text()).toBe(201);
  await confirmDeathThroughTheApi(
    watcherContext.request,
    { accessToken: reporter.accessToken, email: watcher.email },
    own.userId,
  );
  await advanceServerClock(memberApi, 8 * DAY_MS);
  const deathCase = async () => {
    const { accessToken } = await accessTokenOf(watcherContext.request, watcher);
    const answer = await watcherContext.request.get(`/v1/fpos/death_case/${own.userId}`, {
      headers: bearer(accessToken),
    });
    return (await answer.json()) as { state: string; releasedAt: string | null };
  };
  await expect.poll(async () => (await deathCase()).state, { timeout: 30_000 }).toBe('released');
  const releasedOn = new Intl.DateTimeFormat('ja-JP', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(new Date((await deathCase()).releasedAt!));

  // The member, alive, signs in with LINE: told what happened, when, and how to come back.
  const page = await memberContext.newPage();
  await page.goto('/login');
  provider.signInNext({ ...account, name: 'めぐみ' });
  await page.getByRole('button', { name: 'LINEでログイン' }).click();
  await expect(page).toHaveURL(/\/login\?error=OAuthCallback&code=account_memorialized&since=/);
  await expect(
    page.getByText(
      `${releasedOn}に、見守り役の方がご逝去を確認されたため、このアカウントは追悼のためのページとしてお預かりしています。`,
      { exact: true },
    ),
  ).toBeVisible();
  await expect(
    page.getByText(
      'お元気でいらっしゃるのでしたら、アカウントを元に戻せます。ご本人の確認のため、元に戻すためのリンクをご登録のメールアドレスにお送りしました。メールのリンクを開いて、もう一度同じサービスでログインしてください。リンクは24時間有効で、一度だけ使えます。',
      { exact: true },
    ),
  ).toBeVisible();
  await expect(page.getByText(/想定外のエラー|通常ログインをお試しください/)).toHaveCount(0);
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'account-memorialized-line-login-mobile');

  // The mailed link's page asks for LINE, not a password.
  await expect
    .poll(() => linksMailedTo(account.email, /^\/restore-account\?token=/).length, {
      message: 'a restoration mail',
    })
    .toBeGreaterThan(0);
  const link = linksMailedTo(account.email, /^\/restore-account\?token=/).at(-1)!;
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'アカウントを元に戻す' })).toBeVisible();
  await expect(
    page.getByText(
      'ご本人であることを確かめるため、しのぶにログインしているLINEで、もう一度ログインしてください。ログインはせず、確かめるだけです。',
    ),
  ).toBeVisible();
  await expect(page.getByLabel('パスワード', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'アカウントを元に戻す' })).toHaveCount(0);
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'account-restoration-line-mobile');

  // Someone else's LINE account proves nothing. (The provider keeps its own session in its
  // cookies: they go, so that it asks who signs in.)
  const signOutOfLine = () => memberContext.clearCookies({ name: /^_session/ });
  await signOutOfLine();
  provider.signInNext({ sub: `line-${randomUUID()}`, email: 'someone@example.jp', name: '別人' });
  await page.getByRole('link', { name: 'LINEで確かめる' }).click();
  await expect(
    page.getByText(
      'ログインされたアカウントは、このしのぶのアカウントに登録されたものではありません。しのぶにログインしているアカウントで、もう一度お試しください。',
    ),
  ).toBeVisible();
  // The assertion left the address at once.
  await expect(page).toHaveURL(/\/restore-account\?token=[^&]+$/);

  // The member's own LINE account proves the link; the account comes back.
  await signOutOfLine();
  provider.signInNext({ ...account, name: 'めぐみ' });
  await page.getByRole('link', { name: 'LINEで確かめる' }).click();
  await expect(
    page.getByText('ご本人であることを確かめました。30分以内に、下のボタンで元に戻してください。'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/restore-account\?token=[^&]+$/);
  await expectFitsAndAccessible(page);
  await page.getByRole('button', { name: 'アカウントを元に戻す' }).click();
  await expect(page.getByRole('heading', { name: 'アカウントを元に戻しました' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'すでに届けられたもの' }).getByRole('listitem'),
  ).toHaveText(['ご逝去のお知らせを受け取った方:山田 花子 さん']);
  await expectFitsAndAccessible(page);

  // The spent link says so as it opens, and asks for nothing.
  await page.goto(link.pathname + link.search);
  await expect(
    page.getByText(
      'このリンクは使えません。すでに使われたか、有効期限(24時間)が過ぎています。もう一度ログインしていただくと、新しいリンクをお送りします。',
    ),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'LINEで確かめる' })).toHaveCount(0);
  await expect(page.getByLabel('パスワード', { exact: true })).toHaveCount(0);

  // LINE signs the member in again.
  await page.goto('/login');
  provider.signInNext({ ...account, name: 'めぐみ' });
  await page.getByRole('button', { name: 'LINEでログイン' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await memberApi.dispose();
  await memberContext.close();
  await watcherContext.close();
});
