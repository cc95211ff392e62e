import { expect, test, workerServer } from './support/fixtures';
import type { Page } from '@playwright/test';
import {
  advanceServerClock,
  bearer,
  connectAsFamily,
  DAY_MS,
  writeLetterForAfterDeath,
} from './support/deathCases';
import { confirmDeathThroughTheApi } from './support/deathRelease';
import {
  accessTokenOf,
  linksMailedTo,
  registerMember,
  signInOnLoginScreen,
  signUpAndSignIn,
} from './support/members';
import { installNativeHost } from './support/nativeHost';
import { expectFitsAndAccessible, keepScreenshot, VIEWPORTS } from './support/screens';

/**
 * The living member whose death was confirmed by mistake: after the release they sign in, are
 * told plainly what happened and when, restore the account with the mailed link and their
 * password, see what had already been delivered; the link works once; their 見守り役 is told
 * and sees the case over. The confirmation itself is made through the API as the app makes it.
 */

test('journey: a member released by mistake signs in, restores the account from the mail, and the 見守り役 is told', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const watcherContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const memberContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const watcher = await signUpAndSignIn(watcherContext.request);
  const memberApi = await playwright.request.newContext({ baseURL: workerServer().baseURL });
  const member = await registerMember(memberApi);
  const own = await accessTokenOf(memberApi, member);
  const admin = await accessTokenOf(watcherContext.request, watcher);

  // The member names their family connection as 見守り役 and writes them a letter.
  const requestId = await connectAsFamily(memberApi, own, watcherContext.request, admin);
  const named = await memberApi.put('/v1/fpos/death_settings', {
    headers: bearer(own.accessToken),
    data: {
      rule: 'any_one',
      administrator_user_ids: [admin.userId],
      check_in_period_days: null,
      current_password: member.password,
    },
  });
  expect(named.status(), await named.text()).toBe(200);
  const title = `ありがとう ${requestId.slice(0, 8)}`;
  await writeLetterForAfterDeath(memberApi, own.accessToken, admin.userId, title);

  // A week later the 見守り役 reports and confirms; the grace period runs out; the letter goes.
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

  // The member, alive, signs in: told what happened, when, and that a link was mailed; the
  // same in the app web view and in a plain browser.
  const toldWhatHappened = async (page: Page) => {
    await page.goto('/login');
    await signInOnLoginScreen(page, member.email, member.password);
    await expect(
      page.getByText(
        `${releasedOn}に、見守り役の方がご逝去を確認されたため、このアカウントは追悼のためのページとしてお預かりしています。`,
        { exact: true },
      ),
    ).toBeVisible();
    await expect(
      page.getByText(
        'お元気でいらっしゃるのでしたら、アカウントを元に戻せます。ご本人の確認のため、元に戻すためのリンクをご登録のメールアドレスにお送りしました。メールのリンクを開いて、パスワードを入力してください。リンクは24時間有効で、一度だけ使えます。',
        { exact: true },
      ),
    ).toBeVisible();
    await expect(
      page.getByText(
        'メールが届かないときは、もう一度ログインしてください。新しいリンクをお送りします。',
        { exact: true },
      ),
    ).toBeVisible();
    await expect(page.getByText(/想定外のエラー/)).toHaveCount(0);
    await expect(page).toHaveURL(/\/login/);
    await expectFitsAndAccessible(page);
  };
  const appWebView = await memberContext.newPage();
  await installNativeHost(appWebView);
  await toldWhatHappened(appWebView);
  await appWebView.close();
  const page = await memberContext.newPage();
  await toldWhatHappened(page);
  await keepScreenshot(page, 'account-memorialized-login-mobile');

  // The mailed link, with the password, restores the account.
  await expect
    .poll(() => linksMailedTo(member.email, /^\/restore-account\?token=/).length, {
      message: 'a restoration mail',
    })
    .toBeGreaterThan(0);
  const link = linksMailedTo(member.email, /^\/restore-account\?token=/)[0]!;
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'アカウントを元に戻す' })).toBeVisible();
  await expectFitsAndAccessible(page);
  await page.getByRole('button', { name: 'アカウントを元に戻す' }).click();
  await expect(page.getByText('入力してください。', { exact: true })).toBeVisible();
  await page.getByLabel('パスワード', { exact: true }).fill('not my password');
  await page.getByRole('button', { name: 'アカウントを元に戻す' }).click();
  await expect(
    page.getByText('パスワードが正しくありません。もう一度入力してください。'),
  ).toBeVisible();
  await page.getByLabel('パスワード', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'アカウントを元に戻す' }).click();
  await expect(page.getByRole('heading', { name: 'アカウントを元に戻しました' })).toBeVisible();
  await expect(
    page.getByText(
      'おかえりなさい。ご逝去の確認は取り消されました。見守り役の方と、ご逝去のお知らせを受け取った方に、お元気であることをお伝えしました。',
    ),
  ).toBeVisible();
  const delivered = page.getByRole('region', { name: 'すでに届けられたもの' });
  await expect(
    delivered.getByText(
      '次のものは、元に戻す前に届けられました。取り消すことはできませんので、必要に応じて、受け取った方にご連絡ください。',
    ),
  ).toBeVisible();
  await expect(delivered.getByRole('listitem')).toHaveText([
    new RegExp(`^手紙「${title}」:山田 花子 さんへ\\(.+\\)$`),
    'ご逝去のお知らせを受け取った方:山田 花子 さん',
  ]);
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'account-restored-mobile');

  // The link works once: opened again, it says so at once and asks for nothing.
  await page.goto(link.pathname + link.search);
  await expect(
    page.getByText(
      'このリンクは使えません。すでに使われたか、有効期限(24時間)が過ぎています。もう一度ログインしていただくと、新しいリンクをお送りします。',
    ),
  ).toBeVisible();
  await expect(page.getByLabel('パスワード', { exact: true })).toHaveCount(0);

  // The member signs in again.
  await page.goto('/login');
  await signInOnLoginScreen(page, member.email, member.password);
  await expect(page).toHaveURL(/\/dashboard/);

  // The 見守り役 is told, and the case is over with the restoration in its record.
  const watcherPage = await watcherContext.newPage();
  await watcherPage.goto('/notification/list');
  await expect(
    watcherPage.getByText(
      '山田 花子 さんご本人から、お元気であるとのご連絡があり、ご逝去の確認は取り消されました。',
    ),
  ).toBeVisible();
  await expect(
    watcherPage.getByText(
      '(取り消し済み) 山田 花子 さんのご逝去の確認は、ご本人がアカウントを元に戻されたため取り消されました。山田 花子 さんはお元気です。',
    ),
  ).toBeVisible();
  await expectFitsAndAccessible(watcherPage);
  await watcherPage.goto(`/death-administration/${own.userId}`);
  await expect(watcherPage.getByText('お変わりありません', { exact: true })).toBeVisible();
  await expect(
    watcherPage.getByText(/ご本人によるアカウントの復元\(ご逝去の確認の取り消し\)/),
  ).toBeVisible();
  // The case page tells it as a restoration, gently, and keeps the 見守り役's report.
  await expect(
    watcherPage.getByText(
      /^.+ からのご逝去の可能性のお知らせは、.+ に 山田 花子 さんご本人がアカウントを元に戻されたため、取り消されました。山田 花子 さんはお元気です。届いたお知らせと報告は、下のとおり残っています。$/,
    ),
  ).toBeVisible();
  await expect(watcherPage.getByRole('heading', { name: '見守り役の確認' })).toBeVisible();
  await expectFitsAndAccessible(watcherPage);
  await keepScreenshot(watcherPage, 'account-restored-watcher-mobile');

  await memberApi.dispose();
  await memberContext.close();
  await watcherContext.close();
});
