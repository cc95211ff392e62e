import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';
import { unzip } from '../test/support/unzip';
import { advanceServerClock, bearer, connectAsFamily, DAY_MS } from './support/deathCases';
import { confirmDeathThroughTheApi } from './support/deathRelease';
import { accessTokenOf, signInAs, signUpAndSignIn } from './support/members';
import { expectFitsAndAccessible, keepScreenshot, VIEWPORTS } from './support/screens';

/**
 * A member chooses on /death-settings what happens after their death: the page left as it is,
 * the account deleted 30 days after the release, the archive to their 見守り役. Released on
 * the test clock, the 見守り役 is told, downloads the archive once, and after 30 days the
 * account goes while the page stays as chosen. The confirmation is made through the API as
 * the app makes it.
 */

test('journey: a member chooses deletion after 30 days and an archive for their 見守り役; both are carried out', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // bypassCSP lets axe's script in.
  const memberContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const watcherContext = await browser.newContext({
    viewport: VIEWPORTS.mobile,
    bypassCSP: true,
    acceptDownloads: true,
  });
  const member = await signUpAndSignIn(memberContext.request);
  const watcher = await signUpAndSignIn(watcherContext.request);
  const own = await accessTokenOf(memberContext.request, member);
  const admin = await accessTokenOf(watcherContext.request, watcher);
  await connectAsFamily(memberContext.request, own, watcherContext.request, admin);

  // The member names their 見守り役 and makes their choices, with the password.
  const page = await memberContext.newPage();
  await page.goto('/death-settings');
  await page.getByRole('checkbox', { name: /山田 花子/ }).check();
  const after = page.getByRole('region', { name: 'ご逝去のあと' });
  await after.getByRole('radio', { name: /いまのまま残す/ }).check();
  await after.getByRole('radio', { name: /日数をおいて解約する/ }).check();
  await expect(after.getByLabel(/解約までの日数/)).toHaveValue('30');
  // Choosing deletion says plainly what stays and what goes.
  await expect(after.getByText(/^残るもの:メモリアルページ\(上で選んだとおり。/)).toBeVisible();
  await expect(after.getByText(/^なくなるもの:ログインの情報、/)).toBeVisible();
  await expect(
    after.getByText('解約の日までにご本人がアカウントを元に戻した場合は、解約されません。'),
  ).toBeVisible();
  await after
    .getByRole('group', { name: /データの書き出し/ })
    .getByRole('radio', { name: '山田 花子' })
    .check();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'after-death-choices-mobile');
  await page.getByRole('button', { name: 'この内容で保存する' }).click();
  await expect(page.getByText(/確認のため現在のパスワードを入力してください/)).toBeVisible();
  await page.getByLabel('現在のパスワード').fill(member.password);
  await page.getByRole('button', { name: 'この内容で保存する' }).click();
  await expect(page.getByRole('status')).toHaveText(/保存しました/);
  const saved = await memberContext.request.get('/v1/fpos/death_settings', {
    headers: bearer((await accessTokenOf(memberContext.request, member)).accessToken),
  });
  expect(((await saved.json()) as { afterDeath: unknown }).afterDeath).toEqual({
    page: 'unchanged',
    account: 'delete',
    deleteAfterDays: 30,
    archiveRecipientUserId: admin.userId,
  });

  // A week later the 見守り役 reports and confirms; the grace period runs out.
  await advanceServerClock(memberContext.request, 7 * DAY_MS + 60_000);
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
  await advanceServerClock(watcherContext.request, 8 * DAY_MS);
  const notices = async () => {
    const { accessToken } = await accessTokenOf(watcherContext.request, watcher);
    const list = await watcherContext.request.get('/v1/notification/user_notifications', {
      headers: bearer(accessToken),
    });
    return ((await list.json()) as { items: { kind: string }[] }).items.map((item) => item.kind);
  };
  await expect
    .poll(notices, { timeout: 30_000, message: 'the release and the archive' })
    .toEqual(expect.arrayContaining(['death_choices_carried_out', 'death_archive_ready']));

  // The 見守り役 sees what was done and downloads the archive, once.
  await signInAs(watcherContext.request, watcher);
  const watcherPage = await watcherContext.newPage();
  await watcherPage.goto('/notification/list');
  await expect(
    watcherPage.getByText(
      '山田 花子 さんがご生前に選ばれたとおりに、メモリアルページとアカウントを整えました。内容をご確認ください。',
    ),
  ).toBeVisible();
  await watcherPage
    .getByText(
      '山田 花子 さんのすべてのデータの書き出しの準備ができました。見守り役のページからダウンロードできます。',
    )
    .click();
  await expect(watcherPage).toHaveURL(/\/death-administration$/);
  const archives = watcherPage.getByRole('region', { name: 'お預かりしたデータ' });
  await expect(archives.getByText('山田 花子 さんのデータ:')).toBeVisible();
  await expectFitsAndAccessible(watcherPage);
  await keepScreenshot(watcherPage, 'after-death-archive-mobile');
  const downloading = watcherPage.waitForEvent('download');
  await archives.getByRole('button', { name: 'ダウンロードする' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^shinobu-data-\d{8}\.zip$/);
  const files = await unzip(readFileSync((await download.path())!));
  const profile = JSON.parse(files.get('profile.json')!.body.toString('utf8'));
  expect(profile.email).toBe(member.email);

  // The case's record shows each step.
  await watcherPage.goto(`/death-administration/${own.userId}`);
  for (const step of [
    'メモリアルページの扱い(ご本人が選んだとおり)',
    'アカウントの解約日の決定',
    '見守り役へのデータの書き出しの準備完了',
  ]) {
    await expect(watcherPage.getByText(step, { exact: false })).toBeVisible();
  }

  // Thirty days after the release the account goes; the page stays as it was.
  await advanceServerClock(watcherContext.request, 30 * DAY_MS);
  await expect
    .poll(notices, { timeout: 30_000, message: 'the deletion' })
    .toContain('death_account_deleted');
  const signIn = await memberContext.request.post('/v1/login', {
    form: { username: member.email, password: member.password },
  });
  expect(signIn.status()).toBe(401);
  await signInAs(watcherContext.request, watcher);
  await watcherPage.goto('/notification/list');
  await expect(
    watcherPage.getByText('山田 花子 さんがご生前に選ばれたとおり、アカウントを解約しました。'),
  ).toBeVisible();
  await watcherPage.goto(`/memory/${own.memorialPageId}`);
  await expect(watcherPage.getByRole('heading', { name: '山田 花子', level: 1 })).toBeVisible();
  // Left as it was: no mourning view.
  await expect(watcherPage.getByText(/このページは、故人を偲ぶページになりました/)).toHaveCount(0);
  await expectFitsAndAccessible(watcherPage);
  await keepScreenshot(watcherPage, 'after-death-page-kept-mobile');

  await memberContext.close();
  await watcherContext.close();
});
