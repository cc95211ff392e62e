import { randomUUID } from 'node:crypto';
import { expect, test } from './support/fixtures';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import {
  accessTokenOf,
  linksMailedTo,
  registerApart,
  signInOnLoginScreen,
  signUpAndSignIn,
} from './support/members';
import { keepScreenshot, VIEWPORTS } from './support/screens';
import { serverNow } from './support/serverClock';

/** A 1×1 PNG: the photo attached to a letter. */
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JAPAN_OFFSET_MS = 9 * 60 * 60 * 1000;
// Each test walks several screens with two or three members; the machine is shared.
test.describe.configure({ timeout: 180_000 });
const JAPAN_DATE_TIME = /\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}/;

async function advanceServerClock(request: APIRequestContext, ms: number): Promise<void> {
  const response = await request.post('/v1/test/clock', { data: { advance_ms: ms } });
  expect(response.status(), await response.text()).toBe(200);
}

/** What the compose form's date-time field takes: Japan local time, minutes. */
const japanInput = (instant: number) =>
  new Date(instant + JAPAN_OFFSET_MS).toISOString().slice(0, 16);

async function rename(
  request: APIRequestContext,
  accessToken: string,
  lastName: string,
  firstName: string,
) {
  const renamed = await request.patch('/v1/mypage/profile', {
    headers: { authorization: `Bearer ${accessToken}` },
    data: {
      last_name: lastName,
      first_name: firstName,
      last_name_kana: 'てがみ',
      first_name_kana: 'ひと',
    },
  });
  expect(renamed.status(), await renamed.text()).toBe(200);
}

/** Opens the time capsule entry of the burger menu (360 px: no desktop header). */
async function openTimecapsuleMenu(page: Page) {
  await page.getByRole('button', { name: 'メニューを開く' }).click();
  await page
    .getByRole('dialog', { name: 'メニュー' })
    .getByRole('button', { name: 'タイムカプセル' })
    .click();
}

async function check(page: Page, screenshot: string) {
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, screenshot);
}

async function signedInPage(browser: Browser) {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const member = await signUpAndSignIn(context.request);
  const token = await accessTokenOf(context.request, member);
  return { context, member, token, page: await context.newPage() };
}

test('start page, then an unsent letter written, listed, edited and deleted', async ({
  browser,
}) => {
  const writer = await signedInPage(browser);
  const { page } = writer;
  // The menu entry ignores a click while it reads the member's unsent letters, which it does
  // once the page knows the member: the click waits for that read.
  const lettersRead = page.waitForResponse((response) =>
    response.url().endsWith('/v1/time_capsule_letter/get_unsent_letters'),
  );
  await page.goto('/');
  await lettersRead;
  await openTimecapsuleMenu(page);
  await expect(page).toHaveURL(/\/timecapsule$/);
  await expect(page.getByRole('heading', { name: 'タイムカプセルとは' })).toBeVisible();
  await check(page, 'timecapsule-start-mobile');

  await page.getByRole('link', { name: '手紙を書く' }).click();
  await expect(page).toHaveURL(/\/timecapsule\/new$/);
  await expect(page.getByText('つながりのある方はまだいません。下のボタン')).toBeVisible();
  // Nothing filled in: every problem is shown in Japanese by its field, nothing is sent.
  await page.getByRole('button', { name: 'この手紙を預ける' }).click();
  await expect(page.getByRole('alert').getByText('入力内容を確認してください。')).toBeVisible();
  await expect(page.getByLabel('件名')).toHaveAccessibleDescription('入力してください。');
  await expect(page.getByLabel('届ける日時(日本時間)')).toHaveAccessibleDescription(
    '入力してください。',
  );
  await check(page, 'timecapsule-compose-errors-mobile');

  // A recipient who is not yet a member, written by name and address.
  await page.getByRole('button', { name: 'まだ会員でない方をメールアドレスで加える' }).click();
  const guest = page.getByRole('group', { name: 'メールで届ける方 1' });
  await guest.getByLabel('姓').fill('未来');
  await guest.getByLabel('名').fill('太郎');
  await guest.getByLabel('メールアドレス').fill('not-an-address');
  await page.getByLabel('件名').fill('十年後のあなたへ');
  await page.getByLabel('本文').fill('元気にしていますか。');
  const inAYear = (await serverNow(page.request)) + 365 * 24 * 60 * 60 * 1000;
  await page.getByLabel('届ける日時(日本時間)').fill(japanInput(inAYear));
  await page.getByRole('button', { name: 'この手紙を預ける' }).click();
  await expect(guest.getByLabel('メールアドレス')).toHaveAccessibleDescription(
    'メールアドレスの形式が正しくありません。',
  );
  await guest.getByLabel('メールアドレス').fill(`future-${randomUUID()}@example.jp`);
  await page.getByRole('button', { name: 'この手紙を預ける' }).click();
  await expect(page).toHaveURL(/\/timecapsule\/letters\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { name: '十年後のあなたへ', level: 1 })).toBeVisible();
  await expect(page.getByText('まだ届けていません')).toBeVisible();

  // The menu entry now knows there is an unsent letter.
  await openTimecapsuleMenu(page);
  await expect(page).toHaveURL(/\/timecapsule\/list$/);
  const unsent = page.getByRole('region', { name: 'まだ届けていない手紙' });
  const item = unsent.getByRole('listitem').filter({ hasText: '十年後のあなたへ' });
  await expect(item).toBeVisible();
  await expect(item.getByText('宛先:未来 太郎')).toBeVisible();
  await expect(item.getByText(/^最終更新:/)).toHaveText(JAPAN_DATE_TIME);
  await expect(page.getByText('届いた手紙はまだありません。')).toBeVisible();
  await expect(page.getByText('管理を任されている手紙はありません。')).toBeVisible();
  await check(page, 'timecapsule-list-mobile');

  // Editing: leaving with unsaved changes asks first; staying keeps what was typed.
  await item.getByRole('link', { name: '「十年後のあなたへ」を編集する' }).click();
  await expect(page).toHaveURL(/\/timecapsule\/edit\/[0-9a-f-]+$/);
  await expect(page.getByLabel('件名')).toHaveValue('十年後のあなたへ');
  await page.getByLabel('件名').fill('二十年後のあなたへ');
  await page.getByRole('link', { name: '偲ぶ トップページ' }).click();
  const warning = page.getByRole('dialog', { name: '保存されていない変更があります' });
  await expect(warning).toBeVisible();
  await warning.getByRole('button', { name: 'このページに留まる' }).click();
  await expect(page.getByLabel('件名')).toHaveValue('二十年後のあなたへ');
  await check(page, 'timecapsule-edit-mobile');
  await page.getByRole('button', { name: '変更を保存する' }).click();
  await expect(page.getByRole('heading', { name: '二十年後のあなたへ', level: 1 })).toBeVisible();

  // Deleting asks for confirmation; then the list is empty and the menu opens the start page.
  await page.getByRole('button', { name: '「二十年後のあなたへ」を削除する' }).click();
  const confirm = page.getByRole('dialog', { name: '手紙を削除しますか' });
  await expect(confirm).toBeVisible();
  await check(page, 'timecapsule-delete-confirm-mobile');
  await confirm.getByRole('button', { name: '削除する' }).click();
  await expect(page).toHaveURL(/\/timecapsule\/list$/);
  await expect(page.getByText('まだ届けていない手紙はありません。')).toBeVisible();
  await openTimecapsuleMenu(page);
  await expect(page).toHaveURL(/\/timecapsule$/);
  await writer.context.close();
});

type SignedIn = Awaited<ReturnType<typeof signedInPage>>;

/** `from` asks `to` for a connection and `to` accepts it. */
async function connect(from: SignedIn, to: SignedIn) {
  const requested = await from.context.request.post('/v1/connection/requests', {
    headers: { authorization: `Bearer ${from.token.accessToken}` },
    data: { to_user_id: to.token.userId, relationship: 'family' },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  const { requestId } = (await requested.json()) as { requestId: string };
  const accepted = await to.context.request.post(`/v1/connection/requests/${requestId}/accept`, {
    headers: { authorization: `Bearer ${to.token.accessToken}` },
    data: { relationship: 'family' },
  });
  expect(accepted.status(), await accepted.text()).toBe(204);
}

/** A writer connected with a reader and with an admin, each with a browser page signed in. */
async function connectedMembers(browser: Browser) {
  const writer = await signedInPage(browser);
  const reader = await signedInPage(browser);
  const admin = await signedInPage(browser);
  await rename(writer.context.request, writer.token.accessToken, '手紙', '送子');
  await rename(reader.context.request, reader.token.accessToken, '手紙', '受子');
  await rename(admin.context.request, admin.token.accessToken, '管理', '守');
  await connect(writer, reader);
  await connect(writer, admin);
  return { writer, reader, admin };
}

async function receivedLetterCount(request: APIRequestContext, accessToken: string) {
  const response = await request.get('/v1/time_capsule_letter/get_received_letters', {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return ((await response.json()) as unknown[]).length;
}

test('a letter for a minute ahead is delivered once the clock passes it; read and seen opened', async ({
  browser,
}) => {
  const { writer, reader, admin } = await connectedMembers(browser);
  const page = writer.page;
  await page.goto('/timecapsule/new');
  await page
    .getByRole('group', { name: 'つながりのある方から選ぶ', exact: true })
    .getByRole('checkbox', { name: '手紙 受子' })
    .check();
  await page.getByLabel('件名').fill('一分後の手紙');
  await page.getByLabel('本文').fill('この手紙が届くころ、\nきっと桜が咲いています。');
  await page
    .getByRole('group', { name: 'つながりのある方から選ぶ(最大5人)' })
    .getByRole('checkbox', { name: '管理 守' })
    .check();
  // An upload under way shows its progress and a cancel; cancelling keeps the letter as typed.
  const held = '**/files/uploads/**';
  await page.route(held, () => undefined);
  await page.getByLabel(/^写真を選ぶ/).setInputFiles({
    name: 'sakura.png',
    mimeType: 'image/png',
    buffer: PHOTO,
  });
  await expect(
    page.getByRole('progressbar', { name: /^sakura\.png を送信中 \d+%$/ }),
  ).toBeVisible();
  await page.getByRole('button', { name: '送信をやめる' }).click();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByRole('img', { name: '写真 1' })).toHaveCount(0);
  await expect(page.getByLabel('件名')).toHaveValue('一分後の手紙');
  await page.unroute(held);
  // A file that is not an image is refused with the reason.
  await page.getByLabel(/^写真を選ぶ/).setInputFiles({
    name: 'note.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not a picture'),
  });
  await expect(page.getByText('画像ファイル(JPEG・PNG・WebP)を選んでください。')).toBeVisible();
  await page.getByLabel(/^写真を選ぶ/).setInputFiles({
    name: 'sakura.png',
    mimeType: 'image/png',
    buffer: PHOTO,
  });
  await expect(page.getByRole('img', { name: '写真 1' })).toBeVisible();
  // A minute ahead of the server's clock, on the next whole minute the field can hold.
  const now = await serverNow(page.request);
  const sendAt = Math.ceil((now + 60_000) / 60_000) * 60_000;
  await page.getByLabel('届ける日時(日本時間)').fill(japanInput(sendAt));
  await check(page, 'timecapsule-compose-mobile');
  await page.getByRole('button', { name: 'この手紙を預ける' }).click();
  await expect(page).toHaveURL(/\/timecapsule\/letters\/[0-9a-f-]+$/);
  const letterUrl = page.url();
  const recipient = page.getByRole('region', { name: '宛先ごとのお届け' });
  await expect(recipient.getByText('まだ届けていません')).toBeVisible();

  // The admin sees the envelope in their list and on the letter, not its body.
  const adminPage = admin.page;
  await adminPage.goto('/timecapsule/list');
  const administered = adminPage.getByRole('region', { name: '管理を任されている手紙' });
  await expect(administered.getByText('宛先:手紙 受子')).toBeVisible();
  await administered.getByRole('link', { name: '一分後の手紙' }).click();
  await expect(adminPage).toHaveURL(letterUrl);
  await expect(adminPage.getByText('本文は、お届けした後に読めるようになります。')).toBeVisible();
  await expect(adminPage.getByText('きっと桜が咲いています。')).toBeHidden();
  await check(adminPage, 'timecapsule-letter-admin-mobile');

  // The clock passes the time; the delivery job delivers on its next tick.
  expect(await receivedLetterCount(reader.context.request, reader.token.accessToken)).toBe(0);
  await advanceServerClock(page.request, sendAt - now + 1_000);
  await expect
    .poll(() => receivedLetterCount(reader.context.request, reader.token.accessToken), {
      timeout: 30_000,
    })
    .toBe(1);

  // The reader sees the unread badge (the connection request and the letter), the
  // notification, and the letter.
  const readerPage = reader.page;
  await readerPage.goto('/');
  await expect(readerPage.getByTestId('tab-bar').getByLabel('未読 2 件')).toBeVisible();
  await readerPage.goto('/timecapsule/list');
  const received = readerPage.getByRole('region', { name: '届いた手紙' });
  await expect(received.getByRole('link', { name: '【未開封】 一分後の手紙' })).toBeVisible();
  await expect(received.getByText('手紙 送子 さんから')).toBeVisible();
  await check(readerPage, 'timecapsule-received-list-mobile');
  // Opening the letter from the list answers its notification too: the badge counts one.
  await received.getByRole('link', { name: '【未開封】 一分後の手紙' }).click();
  await expect(readerPage).toHaveURL(letterUrl);
  await expect(readerPage.getByText('きっと桜が咲いています。')).toBeVisible();
  await readerPage.goto('/');
  await expect(readerPage.getByTestId('tab-bar').getByLabel('未読 1 件')).toBeVisible();
  await readerPage.goto('/notification/list');
  await readerPage
    .getByRole('link', { name: /手紙 送子 さんから手紙「一分後の手紙」が届きました。/ })
    .click();
  await expect(readerPage).toHaveURL(letterUrl);
  await expect(readerPage.getByRole('heading', { name: '一分後の手紙', level: 1 })).toBeVisible();
  await expect(readerPage.getByText('きっと桜が咲いています。')).toBeVisible();
  const photo = readerPage.getByRole('img', { name: '写真 1' });
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
  await expect(readerPage.getByText('予定より遅れて届きました')).toBeHidden();
  await check(readerPage, 'timecapsule-letter-received-mobile');
  await readerPage.goto('/timecapsule/list');
  await expect(received.getByRole('link', { name: '一分後の手紙', exact: true })).toBeVisible();

  // The writer sees it delivered and opened, and can no longer change it.
  await page.reload();
  await expect(recipient.getByText(/に届きました$/)).toHaveText(JAPAN_DATE_TIME);
  await expect(recipient.getByText(/に開封されました$/)).toHaveText(JAPAN_DATE_TIME);
  await expect(page.getByText('お届けした手紙は変更できません。')).toBeVisible();
  await expect(page.getByRole('button', { name: /を削除する$/ })).toHaveCount(0);
  await check(page, 'timecapsule-letter-writer-mobile');
  await writer.context.close();
  await reader.context.close();
  await admin.context.close();
});

/**
 * A member writes a letter to an e-mail address as a guest recipient (not one of their
 * connections), the server delivers it, and the claim link mailed to that address is answered.
 */
async function letterMailedTo(browser: Browser, email: string): Promise<URL> {
  const writer = await signedInPage(browser);
  const written = await writer.context.request.post('/v1/time_capsule_letter', {
    headers: { authorization: `Bearer ${writer.token.accessToken}` },
    data: {
      title: 'まだ見ぬあなたへ',
      body: '会える日を楽しみにしています。',
      recipients: [{ kind: 'guest', last_name: '未来', first_name: '花', email }],
      delivery: {
        rule: 'date',
        send_at: japanInput((await serverNow(writer.page.request)) + 120_000),
      },
    },
  });
  expect(written.status(), await written.text()).toBe(201);
  await advanceServerClock(writer.page.request, 180_000);
  await expect
    .poll(() => linksMailedTo(email, /^\/timecapsule\/claim\?token=/).length, {
      timeout: 30_000,
    })
    .toBe(1);
  await writer.context.close();
  return linksMailedTo(email, /^\/timecapsule\/claim\?token=/)[0]!;
}

test('a letter mailed to someone not yet a member opens after they register and sign in', async ({
  browser,
  playwright,
}) => {
  const guestEmail = `guest-${randomUUID()}@example.jp`;
  const claimLink = await letterMailedTo(browser, guestEmail);

  // A visitor opens the link and chooses to register; the account is made with that address.
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(claimLink.pathname + claimLink.search);
  await expect(page.getByText('あなたあてに手紙が届いています。')).toBeVisible();
  await check(page, 'timecapsule-claim-visitor-mobile');
  await page.getByRole('button', { name: '新規登録して読む' }).click();
  await expect(page).toHaveURL(/\/register-top/);
  const guest = await registerApart(playwright, guestEmail);

  // The first sign-in afterwards goes on to the letter.
  await page.goto('/login');
  await signInOnLoginScreen(page, guest.email, guest.password);
  await expect(page).toHaveURL(/\/timecapsule\/letters\/[0-9a-f-]+$/);
  await expect(page.getByText('会える日を楽しみにしています。')).toBeVisible();
  await check(page, 'timecapsule-claimed-letter-mobile');
  await context.close();
});

test('a letter mailed to an address that already has an account opens after signing in', async ({
  browser,
  playwright,
}) => {
  // The address belongs to a member, but the writer addressed the letter by mail: the
  // delivery mails a claim link, as to anyone not chosen among the writer's connections.
  const member = await registerApart(playwright);
  const claimLink = await letterMailedTo(browser, member.email);

  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(claimLink.pathname + claimLink.search);
  await expect(page.getByText('あなたあてに手紙が届いています。')).toBeVisible();
  await page.getByRole('link', { name: 'ログインして読む' }).click();
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);
  await signInOnLoginScreen(page, member.email, member.password);

  // Signing in comes back to the link, which claims the letter and opens it.
  await expect(page).toHaveURL(/\/timecapsule\/letters\/[0-9a-f-]+$/);
  await expect(page.getByText('会える日を楽しみにしています。')).toBeVisible();
  await check(page, 'timecapsule-claimed-by-sign-in-mobile');
  await context.close();
});
