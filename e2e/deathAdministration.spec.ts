import sharp from 'sharp';
import { expect, test } from './support/fixtures';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { bearer, connectAsFamily, DAY_MS, writeLetterForAfterDeath } from './support/deathCases';
import { accessTokenOf, signUpAndSignIn, type E2eMember } from './support/members';
import { installNativeHost } from './support/nativeHost';
import { expectFitsAndAccessible, keepScreenshot, VIEWPORTS } from './support/screens';

/**
 * The family's side of death detection, as people use it: the member names an administrator
 * in the app's settings, the administrator (in the app web view) accepts, reports a suspected
 * death with a reason and a document, and confirms it from the header's modal; then either
 * the member comes back during the grace period (the banner says it was cancelled), or the
 * grace period runs out on the test clock and the letter and the note section are released.
 */

const NOTE_TEXT = 'みんな、本当にありがとう。';
const REASON = '入院先の病院から連絡がありました';

function yesterdayInTokyo(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(
    new Date(Date.now() - DAY_MS),
  );
}

interface Family {
  memberPage: Page;
  adminPage: Page;
  adminApi: APIRequestContext;
  administrator: E2eMember;
  memberId: string;
  title: string;
  close: () => Promise<void>;
}

/**
 * Two people, connected as family: the member in a plain browser, the administrator in the
 * app web view. The member has written a letter and a note section for after their death.
 */
async function family(browser: Browser): Promise<Family> {
  const memberContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const adminContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const member = await signUpAndSignIn(memberContext.request);
  const administrator = await signUpAndSignIn(adminContext.request);
  const own = await accessTokenOf(memberContext.request, member);
  const admin = await accessTokenOf(adminContext.request, administrator);

  const requestId = await connectAsFamily(memberContext.request, own, adminContext.request, admin);
  const title = `ありがとう ${requestId.slice(0, 8)}`;
  await writeLetterForAfterDeath(memberContext.request, own.accessToken, admin.userId, title);
  const note = `/v1/endingnote/${own.userId}`;
  for (const [url, method, data] of [
    // Readers and visibility are asked for the member's password (a fresh proof).
    [`${note}/readers`, 'put', { user_ids: [admin.userId], current_password: member.password }],
    [`${note}/sections/message`, 'put', { version: 0, values: { to_family: NOTE_TEXT } }],
    [
      `${note}/sections/message/visibility`,
      'put',
      { visibility: 'readers_after_death', current_password: member.password },
    ],
  ] as const) {
    const saved = await memberContext.request[method](url, {
      headers: bearer(own.accessToken),
      data,
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }

  const memberPage = await memberContext.newPage();
  const adminPage = await adminContext.newPage();
  await installNativeHost(adminPage);
  return {
    memberPage,
    adminPage,
    adminApi: adminContext.request,
    administrator,
    memberId: own.userId,
    title,
    close: async () => {
      await memberContext.close();
      await adminContext.close();
    },
  };
}

/** The member, from my page, names their family connection and turns check-ins on. */
async function memberNamesAdministrator(page: Page, password: string) {
  await page.goto('/mypage');
  await page.getByRole('link', { name: '見守り役と確認の設定' }).click();
  await expect(page).toHaveURL(/\/death-settings$/);
  await expect(page.getByText(/確定から 7 日間は猶予期間です/)).toBeVisible();
  await page.getByRole('checkbox', { name: /山田 花子\(家族\)/ }).check();
  await page.getByRole('checkbox', { name: /確認のメールを受け取る/ }).check();
  await page.getByLabel(/ログインがないと確認する日数/).fill('90');
  await page.getByRole('button', { name: 'この内容で保存する' }).click();
  // The password is asked again before death administration changes.
  await expect(page.getByText('現在のパスワードを入力してください。')).toBeVisible();
  await page.getByLabel('現在のパスワード').fill(password);
  await page.getByRole('button', { name: 'この内容で保存する' }).click();
  await expect(page.getByRole('status')).toContainText('保存しました');
  await expect(page.getByText('承諾待ち')).toBeVisible();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'death-settings-mobile');
}

/** The administrator, in the app, verifies their identity, accepts, and reports. */
async function administratorAcceptsAndReports(family: Family) {
  const { adminPage: page, memberPage } = family;
  await page.goto('/identity-verification');
  await page.getByRole('button', { name: '本人確認を始める' }).click();
  await expect(page.getByText(/本人確認は完了しています/)).toBeVisible();

  await page.goto('/death-administration');
  await expect(page.getByText('お変わりありません')).toBeVisible();
  await page.getByRole('button', { name: '山田 花子 さんの見守り役を引き受ける' }).click();
  await expect(page.getByText(/に引き受けました/)).toBeVisible();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'death-administration-mobile');

  // The member sees the acceptance in their settings.
  await memberPage.reload();
  await expect(memberPage.getByText(/に承諾済み/)).toBeVisible();

  await page.getByRole('link', { name: 'くわしく見る' }).click();
  await expect(page.getByRole('heading', { name: '山田 花子 さんの見守りの状況' })).toBeVisible();
  await page.getByLabel(/報告の理由/).fill(REASON);
  const notice = await sharp({
    create: { width: 64, height: 48, channels: 3, background: '#cccccc' },
  })
    .png()
    .toBuffer();
  await page
    .getByLabel('書類の写真(任意)')
    .setInputFiles({ name: 'notice.png', mimeType: 'image/png', buffer: notice });
  await expect(page.getByText('添付:notice.png')).toBeVisible();
  // What was typed stays through the upload.
  await expect(page.getByLabel(/報告の理由/)).toHaveValue(REASON);
  await page.getByRole('button', { name: '報告する' }).click();
  await expect(page.getByText('ご逝去の可能性のお知らせがあります(確認待ち)')).toBeVisible();
  await expect(page.getByText(`理由:${REASON}`)).toBeVisible();
  await expect(page.getByText(/報告:山田 花子 さん/)).toBeVisible();
  await expect(page.getByRole('link', { name: '添付された書類を見る' })).toBeVisible();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'death-case-reported-mobile');
}

/** From the header's modal (a new page load), the four steps of the confirmation. */
async function administratorConfirmsFromModal(page: Page) {
  await page.reload();
  const modal = page.getByRole('dialog', { name: 'ご逝去の可能性についてのお知らせ' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('link', { name: /状況をくわしく見る/ })).toBeVisible();
  await modal.getByRole('button', { name: 'ご逝去の確認を始める' }).click();
  await expect(page).toHaveURL(/\/death-confirmation$/);
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByLabel('ご逝去日').fill(yesterdayInTokyo());
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByLabel('山田 花子 さんとのご関係').selectOption('family');
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByRole('button', { name: '電子証明書で署名して送信する' }).click();
  await expect(page.getByText(/山田 花子 さんのご逝去の確認が済みました。/)).toBeVisible();
}

async function caseShows(page: Page, memberId: string, state: string) {
  await page.goto(`/death-administration/${memberId}`);
  await expect(page.getByText(state, { exact: true })).toBeVisible();
}

async function advanceServerClock(api: APIRequestContext, ms: number) {
  const moved = await api.post('/v1/test/clock', { data: { advance_ms: ms } });
  expect(moved.status(), await moved.text()).toBeLessThan(300);
}

async function receivedTitles(family: Family): Promise<string[]> {
  const { accessToken } = await accessTokenOf(family.adminApi, family.administrator);
  const received = await family.adminApi.get('/v1/time_capsule_letter/get_received_letters', {
    headers: bearer(accessToken),
  });
  return ((await received.json()) as { title: string }[]).map((letter) => letter.title);
}

test.describe.configure({ mode: 'serial' });

test('journey: named, accepted, reported, confirmed in the app; the member comes back during the grace period', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const people = await family(browser);
  const password = 'a quiet morning by the sea';
  await memberNamesAdministrator(people.memberPage, password);
  // An administrator may confirm only a week after being named.
  await advanceServerClock(people.adminApi, 7 * DAY_MS + 60_000);
  await administratorAcceptsAndReports(people);
  await administratorConfirmsFromModal(people.adminPage);
  await caseShows(people.adminPage, people.memberId, 'ご逝去が確認され、猶予期間中です');
  await expect(people.adminPage.getByText(/猶予期間の終わり/)).toBeVisible();
  await expect(people.adminPage.getByText(/見守り役による確認/).first()).toBeVisible();

  // The member opens the app, signed in: the case is cancelled and the banner says so.
  await people.memberPage.goto('/dashboard');
  const banner = people.memberPage.getByRole('status').filter({
    has: people.memberPage.getByRole('heading', {
      name: '見守り役があなたのご逝去を確認していました(猶予期間中)',
    }),
  });
  await expect(banner).toContainText(
    'ご本人のご利用が確認できたため、取り消しました。何も公開されません。見守り役の方にも、取り消されたことをお知らせしました。',
  );
  await expect(banner).toContainText(
    'これからも、ログインするだけで同じように取り消されます。お心当たりのないお知らせでしたら、見守り役の方にご様子をお伝えください。',
  );
  // Cancelled already: no word of how to cancel, and nothing about "this app" in a browser.
  await expect(banner).not.toContainText('取り消すには');
  await expect(banner).not.toContainText('このアプリ');
  await expectFitsAndAccessible(people.memberPage);
  await keepScreenshot(people.memberPage, 'death-own-banner-mobile');
  // The member's own notice of the suspicion says it was cancelled.
  await people.memberPage.goto('/notification/list');
  await expect(
    people.memberPage.getByText(
      '(取り消し済み) 山田 花子 さんについての、ご逝去の可能性のお知らせは取り消されました。ご本人のご無事が確かめられています。',
    ),
  ).toBeVisible();

  // The 見守り役 still sees her report, its document and its outcome.
  await caseShows(people.adminPage, people.memberId, 'お変わりありません');
  await expect(
    people.adminPage.getByRole('heading', { name: '取り消されたお知らせ' }),
  ).toBeVisible();
  await expect(
    people.adminPage.getByText(
      /^\S+ \S+ からのご逝去の可能性のお知らせは、\S+ \S+ に 山田 花子 さんご本人のご利用が確かめられたため、取り消されました。山田 花子 さんはお元気です。届いたお知らせと報告は、下のとおり残っています。$/,
    ),
  ).toBeVisible();
  await expect(people.adminPage.getByText(`理由:${REASON}`)).toBeVisible();
  await expect(people.adminPage.getByRole('link', { name: '添付された書類を見る' })).toBeVisible();
  await expect(people.adminPage.getByText(/取り消し\(ご本人の確認\)/)).toBeVisible();
  await expectFitsAndAccessible(people.adminPage);
  await keepScreenshot(people.adminPage, 'death-case-cancelled-mobile');
  await people.adminPage.goto('/notification/list');
  await expect(
    people.adminPage.getByText(
      '山田 花子 さんのご無事が確かめられ、ご逝去の可能性についてのお知らせは取り消されました。',
    ),
  ).toBeVisible();
  await expect(
    people.adminPage.getByText(
      '(取り消し済み) 山田 花子 さんについての、ご逝去の可能性のお知らせは取り消されました。ご本人のご無事が確かめられています。',
    ),
  ).toBeVisible();
  await advanceServerClock(people.adminApi, 8 * DAY_MS);
  expect(await receivedTitles(people)).not.toContain(people.title);
  await people.close();
});

test('journey: the grace period runs out and the letter and the note section are released', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const people = await family(browser);
  await memberNamesAdministrator(people.memberPage, 'a quiet morning by the sea');
  // An administrator may confirm only a week after being named.
  await advanceServerClock(people.adminApi, 7 * DAY_MS + 60_000);
  await administratorAcceptsAndReports(people);
  await administratorConfirmsFromModal(people.adminPage);

  await advanceServerClock(people.adminApi, 8 * DAY_MS);
  await expect.poll(() => receivedTitles(people), { timeout: 60_000 }).toContain(people.title);
  await caseShows(
    people.adminPage,
    people.memberId,
    'ご逝去が確定し、準備されたものが公開されました',
  );
  await people.adminPage.goto(`/endingnote/${people.memberId}`);
  await expect(people.adminPage.getByText(NOTE_TEXT)).toBeVisible();
  await people.close();
});
