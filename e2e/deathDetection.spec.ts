import { expect, test } from './support/fixtures';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { accessTokenOf, signInAs, signUpAndSignIn } from './support/members';
import { advanceServerClock, bearer, DAY_MS, suspectedMemberOf } from './support/deathCases';
import { installNativeHost, type NativeHostControl } from './support/nativeHost';
import { keepScreenshot, VIEWPORTS } from './support/screens';

/** Yesterday in Japan, `YYYY-MM-DD`. */
function yesterdayInTokyo(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(
    new Date(Date.now() - DAY_MS),
  );
}

/**
 * In the app: a 見守り役 who never verified her identity opens the app; the modal says so and
 * what to do, and leads to a verification that fails once.
 */
async function verifyIdentityInApp(page: Page, host: NativeHostControl) {
  await page.goto('/dashboard');
  const unverified = page.getByRole('dialog', { name: '見守り役の本人確認がまだです' });
  await expect(unverified).toBeVisible();
  await expect(unverified).toContainText(
    '山田 花子 さんについて、ご逝去の可能性があるとのお知らせが届いています。見守り役としてご逝去を確かめるには、先にあなたの本人確認(アプリでの電子証明書の登録)が必要です。数分で終わります。',
  );
  // Never verified is not "expired".
  await expect(unverified).not.toContainText('有効期限');
  await expect(page.getByRole('dialog', { name: '本人確認の有効期限が切れています' })).toHaveCount(
    0,
  );
  // No close button; Escape does not close it either: only its two actions do.
  await expect(unverified.getByRole('button', { name: '閉じる' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(unverified).toBeVisible();
  await expect(unverified.getByRole('button', { name: 'あとで行う' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'death-unverified-modal-app-mobile');
  await unverified.getByRole('button', { name: '本人確認を始める' }).click();
  await expect(page).toHaveURL(/\/identity-verification$/);

  await expect(page.getByText('本人確認はまだ行われていません。アプリで')).toBeVisible();
  host.failNext.add('startCertificateRegistration');
  await page.getByRole('button', { name: '本人確認を始める' }).click();
  await expect(
    page.getByText('電子証明書の登録に失敗しました。もう一度お試しください。'),
  ).toBeVisible();
  await expect(
    page.getByText('本人確認の手続きが途中です。もう一度お進みください。'),
  ).toBeVisible();
  await page.getByRole('button', { name: '本人確認をやり直す' }).click();
  await expect(page.getByText(/本人確認は完了しています。電子証明書の有効期限は/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'death-identity-verified-app-mobile');
}

/** In the app: the death modal, then the four steps; the first signature is cancelled. */
async function confirmDeathInApp(page: Page, host: NativeHostControl) {
  // The modals show once a day; this visit is a new day for the test.
  await page.evaluate(() => localStorage.removeItem('lastDeathConfirmationStepsModalShowDate'));
  await page.goto('/dashboard');
  const modal = page.getByRole('dialog', { name: 'ご逝去の可能性についてのお知らせ' });
  await expect(modal).toBeVisible();
  await expect(modal.getByText(/山田 花子 さんについて/)).toBeVisible();
  await expect(modal.getByRole('img', { name: 'App StoreのQRコード' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'death-modal-app-mobile');
  await modal.getByRole('button', { name: 'ご逝去の確認を始める' }).click();

  await expect(page).toHaveURL(/\/death-confirmation$/);
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(
    page.getByText(
      '山田 花子 さんのご逝去を確かめます。お名前にお間違いがないか、ご確認ください。',
    ),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByLabel('ご逝去日').fill(yesterdayInTokyo());
  // A way out that keeps what was entered: to the case page, and back to the same step.
  await expect(
    page.getByText(
      '入力した内容は残ります。お知らせや見守りの状況の画面から、いつでも続きを行えます。',
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'あとで続ける' }).click();
  await expect(page).toHaveURL(/\/death-administration\/[^/]+$/);
  await expect(page.getByRole('heading', { name: '山田 花子 さんの見守りの状況' })).toBeVisible();
  await page.getByRole('button', { name: 'ご逝去の確認を始める' }).click();
  await expect(page).toHaveURL(/\/death-confirmation$/);
  await expect(page.getByLabel('ご逝去日')).toHaveValue(yesterdayInTokyo());
  await page.getByRole('button', { name: '次へ' }).click();
  await page.getByLabel('山田 花子 さんとのご関係').selectOption('family');
  await page.getByRole('button', { name: '次へ' }).click();
  await expect(page.getByRole('heading', { name: '内容の確認と署名' })).toBeVisible();

  // A reload keeps the progress (deathConfirmationData).
  await page.reload();
  await expect(page.getByRole('heading', { name: '内容の確認と署名' })).toBeVisible();
  await expect(page.getByText('家族')).toBeVisible();

  host.failNext.add('startBaseSign');
  await page.getByRole('button', { name: '電子証明書で署名して送信する' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'アプリでの署名ができませんでした。もう一度お試しください。',
  );
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: '電子証明書で署名して送信する' }).click();
  await expect(page.getByRole('heading', { name: 'ご逝去の確認を受け付けました' })).toBeVisible();
  await expect(page.getByText(/山田 花子 さんのご逝去の確認が済みました。/)).toBeVisible();
  // The outcome survives a reload (deathConfirmationCompletionData).
  await page.reload();
  await expect(page.getByText(/山田 花子 さんのご逝去の確認が済みました。/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'death-confirmation-done-app-mobile');
}

test('plain browser at phone width: store links, no QR codes, instead of the action; identity needs the app', async ({
  browser,
  playwright,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const administrator = await signUpAndSignIn(context.request);
  // Only the suspicion is shown here: no confirmation, so no week to wait.
  const { memberApi } = await suspectedMemberOf(context.request, administrator, playwright, {
    confirmable: false,
  });
  const page = await context.newPage();

  await page.goto('/dashboard');
  const modal = page.getByRole('dialog', { name: 'ご逝去の可能性についてのお知らせ' });
  await expect(modal).toBeVisible();
  // A phone cannot scan its own screen: at phone width, only the store links.
  await expect(modal.getByRole('img', { name: 'App StoreのQRコード' })).toBeHidden();
  await expect(modal.getByRole('img', { name: 'Google PlayのQRコード' })).toBeHidden();
  await expect(modal.getByRole('link', { name: /App Storeでアプリを入手/ })).toHaveAttribute(
    'href',
    /apps\.apple\.com/,
  );
  await expect(modal.getByRole('button', { name: 'ご逝去の確認を始める' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'death-modal-browser-mobile');
  await modal.getByRole('button', { name: '閉じる' }).click();
  await expect(modal).toHaveCount(0);

  // Not shown again the same day.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.goto('/identity-verification');
  await expect(
    page.getByText(/本人確認には電子証明書を扱うスマートフォンアプリが必要です/),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: /Google Playでアプリを入手/ })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Google PlayのQRコード' })).toBeHidden();
  await expect(page.getByRole('button', { name: '本人確認を始める' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'death-identity-browser-mobile');
  await memberApi.dispose();
  await context.close();
});

/** A phone's own browser: its user agent, touch without a mouse, 360 px, no app around the page. */
const PHONE_BROWSER = {
  viewport: VIEWPORTS.mobile,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  isMobile: true,
  hasTouch: true,
  bypassCSP: true,
};

/**
 * A new load of the app, once the header's flow has had both its reads answered (the
 * suspected user, then the administered member) and the page has drawn what followed.
 */
async function loadAfterTheFlowReads(page: Page, path: string) {
  const reads = [
    page.waitForResponse((answer) => answer.url().endsWith('/v1/fpos/death_suspected_user')),
    page.waitForResponse((answer) =>
      answer.url().endsWith('/v1/fpos/administered_user_with_suspected_death'),
    ),
  ];
  await page.goto(path);
  for (const read of reads) await (await read).finished();
  await page.evaluate(
    () => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))),
  );
}

test('plain phone browser: right after her own report the 見守り役 sees no notice modal and no QR code; a desktop keeps them', async ({
  browser,
  playwright,
}) => {
  const context = await browser.newContext(PHONE_BROWSER);
  const administrator = await signUpAndSignIn(context.request);
  // A week after being named: she could confirm, so the case page offers the app.
  const { memberApi, memberId } = await suspectedMemberOf(
    context.request,
    administrator,
    playwright,
    { report: false },
  );
  const page = await context.newPage();
  await page.goto(`/death-administration/${memberId}`);
  await expect(page.getByRole('heading', { name: '山田 花子 さんの見守りの状況' })).toBeVisible();
  await page.getByLabel(/報告の理由/).fill('入院先の病院から連絡がありました');
  await page.getByRole('button', { name: '報告する' }).click();
  await expect(page.getByText('ご逝去の可能性のお知らせがあります(確認待ち)')).toBeVisible();
  // The case page says what comes next: the app, by its store links alone; nothing to scan
  // with the phone she is holding, and no modal over what she just read.
  await expect(page.getByText(/スマートフォンアプリでのみ行えます/)).toBeVisible();
  await expect(page.getByRole('link', { name: /App Storeでアプリを入手/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Google Playでアプリを入手/ })).toBeVisible();
  await expect(page.getByRole('img', { name: 'App StoreのQRコード' })).toBeHidden();
  await expect(page.getByRole('img', { name: 'Google PlayのQRコード' })).toBeHidden();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'death-case-reported-browser-mobile');

  // The header's flow runs again on every load that day: no 「お知らせが届いています」 for her.
  await loadAfterTheFlowReads(page, '/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText(/お知らせが届いています/)).toHaveCount(0);
  await loadAfterTheFlowReads(page, `/death-administration/${memberId}`);
  await expect(page.getByText('ご逝去の可能性のお知らせがあります(確認待ち)')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Held sideways, the phone is wider than 600 px: still a phone, still no QR code.
  await page.setViewportSize({ width: VIEWPORTS.mobile.height, height: VIEWPORTS.mobile.width });
  await expect(page.getByRole('link', { name: /App Storeでアプリを入手/ })).toBeVisible();
  await expect(page.getByRole('img', { name: 'App StoreのQRコード' })).toBeHidden();
  await expect(page.getByRole('img', { name: 'Google PlayのQRコード' })).toBeHidden();

  // The next day in this browser, the notice is due again: the modal, store links, no QR code.
  await page.setViewportSize(VIEWPORTS.mobile);
  await page.evaluate(() =>
    localStorage.setItem('lastDeathConfirmationStepsModalShowDate', '2000-01-01'),
  );
  await loadAfterTheFlowReads(page, '/dashboard');
  const modal = page.getByRole('dialog', { name: 'ご逝去の可能性についてのお知らせ' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('link', { name: /App Storeでアプリを入手/ })).toBeVisible();
  await expect(modal.getByRole('img', { name: 'App StoreのQRコード' })).toBeHidden();
  await expect(modal.getByRole('button', { name: 'ご逝去の確認を始める' })).toHaveCount(0);

  // On a computer (another browser, not the one she reported in), the notice shows with the QR
  // codes to scan with her phone.
  const desktop = await browser.newContext({ viewport: VIEWPORTS.desktop, bypassCSP: true });
  await signInAs(desktop.request, administrator);
  const desktopPage = await desktop.newPage();
  await desktopPage.goto('/dashboard');
  const desktopModal = desktopPage.getByRole('dialog', {
    name: 'ご逝去の可能性についてのお知らせ',
  });
  await expect(desktopModal).toBeVisible();
  await expect(desktopModal.getByRole('img', { name: 'App StoreのQRコード' })).toBeVisible();
  await expect(desktopModal.getByRole('img', { name: 'Google PlayのQRコード' })).toBeVisible();
  await expect(desktopModal.getByRole('button', { name: 'ご逝去の確認を始める' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(desktopPage);
  await keepScreenshot(desktopPage, 'death-modal-browser-desktop');
  await memberApi.dispose();
  await desktop.close();
  await context.close();
});

test('app web view: from suspicion to a confirmed death whose letter reaches its recipient', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const administrator = await signUpAndSignIn(context.request);
  const { memberApi, title } = await suspectedMemberOf(context.request, administrator, playwright);
  const page = await context.newPage();
  const host = await installNativeHost(page);

  await verifyIdentityInApp(page, host);
  // Signed in inside the app: this device's push token was registered.
  expect(host.requests.map((request) => request.type)).toContain('registerDeviceToken');
  await confirmDeathInApp(page, host);
  // The app's analytics heard of the notices shown and of the confirmation sent.
  const logged = host.requests
    .filter((request) => request.type === 'logEvent')
    .map((request) => request.payload);
  expect(logged).toContainEqual({ name: 'death_notice_shown', params: { modal: 'unverified' } });
  expect(logged).toContainEqual({ name: 'death_notice_shown', params: { modal: 'death' } });
  expect(logged).toContainEqual({ name: 'death_confirmation_sent', params: { state: 'grace' } });

  // Past the grace period, the letter is released and delivered to the administrator.
  await advanceServerClock(context.request, 8 * DAY_MS);
  await expect
    .poll(
      async () => {
        const { accessToken } = await accessTokenOf(context.request, administrator);
        const received = await context.request.get('/v1/time_capsule_letter/get_received_letters', {
          headers: bearer(accessToken),
        });
        return ((await received.json()) as { title: string }[]).map((letter) => letter.title);
      },
      { timeout: 60_000 },
    )
    .toContain(title);
  await memberApi.dispose();
  await context.close();
});

test('app web view: the member signs in during the grace period and nothing is released', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const administrator = await signUpAndSignIn(context.request);
  const { memberApi, member, memberId, title } = await suspectedMemberOf(
    context.request,
    administrator,
    playwright,
  );
  const page = await context.newPage();
  const host = await installNativeHost(page);
  await verifyIdentityInApp(page, host);
  await confirmDeathInApp(page, host);

  // The member is alive: signing in during the grace period undoes the confirmation.
  await accessTokenOf(memberApi, member);
  await advanceServerClock(context.request, 8 * DAY_MS);
  const { accessToken } = await accessTokenOf(context.request, administrator);
  const deathCase = await context.request.get(`/v1/fpos/death_case/${memberId}`, {
    headers: bearer(accessToken),
  });
  expect(deathCase.status(), await deathCase.text()).toBe(200);
  expect(((await deathCase.json()) as { state: string }).state).toBe('alive');
  const received = await context.request.get('/v1/time_capsule_letter/get_received_letters', {
    headers: bearer(accessToken),
  });
  expect(((await received.json()) as { title: string }[]).map((l) => l.title)).not.toContain(title);
  // Still a living member's account: signing in works.
  await accessTokenOf(memberApi, member);
  await memberApi.dispose();
  await context.close();
});
