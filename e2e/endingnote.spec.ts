import { expect, test } from './support/fixtures';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { signUpAndSignIn } from './support/members';
import { VIEWPORTS, keepScreenshot } from './support/screens';

const saveButton = (page: Page) => page.getByRole('button', { name: 'このセクションを保存する' });
const sectionLink = (page: Page, name: string) =>
  page
    .getByRole('navigation', { name: 'セクション' })
    .getByRole('link', { name: new RegExp(name) });
const warning = (page: Page) =>
  page.getByRole('dialog', { name: '保存されていない変更があります' });

/** The signed-in member of a browser context: id and a bearer token for `/v1` calls. */
async function sessionOf(request: APIRequestContext) {
  const session = (await (await request.get('/api/auth/session')).json()) as {
    user: { id: string; accessToken: string };
  };
  return { id: session.user.id, headers: { authorization: `Bearer ${session.user.accessToken}` } };
}

/** A browser context at mobile width, signed in as a new member. */
async function newMemberOnMobile(browser: Browser) {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
  await signUpAndSignIn(context.request);
  const { id: userId } = await sessionOf(context.request);
  return { context, userId };
}

async function saveAndWait(page: Page) {
  await saveButton(page).click();
  await expect(page.getByText('保存しました。', { exact: true })).toBeVisible();
}

test('a member fills in every field kind, is warned before leaving, and keeps the note', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  await signUpAndSignIn(context.request);
  const { id: userId } = await sessionOf(context.request);
  const notePath = `/endingnote/${userId}`;
  const page = await context.newPage();
  await page.goto(notePath);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('エンディングノート');
  await expect(sectionLink(page, '自分のこと')).toContainText('0 / 6 項目');

  // 自分のこと: input, date, dropdown, textarea.
  await page.getByLabel('氏名').fill('山田 花子');
  await page.getByLabel('生年月日').fill('1955-05-05');
  await page.getByLabel('血液型').selectOption({ label: 'A型' });
  await page.getByLabel('家族のこと').fill('夫と娘が二人います。\n孫は三人。');
  await saveAndWait(page);
  await expect(sectionLink(page, '自分のこと')).toContainText('4 / 6 項目');

  // 医療・介護: radio and checkbox, then an attempt to leave the section unsaved.
  await sectionLink(page, '医療・介護').click();
  await page.getByRole('group', { name: '臓器提供' }).getByLabel('提供しない').check();
  await page.getByLabel('事前指示書（リビングウィル）を用意しています').check();
  await expect(page.getByRole('group', { name: '判断を任せたい人' })).toContainText(
    'つながりのある方がまだいません。',
  );
  await sectionLink(page, '葬儀・お墓').click();
  await expect(warning(page)).toBeVisible();
  await keepScreenshot(page, 'endingnote-unsaved-warning-mobile');
  await page.getByRole('button', { name: 'このページに留まる' }).click();
  await expect(warning(page)).toBeHidden();
  await expect(page.getByLabel('提供しない')).toBeChecked();
  await expect(page.getByLabel('事前指示書（リビングウィル）を用意しています')).toBeChecked();
  await saveAndWait(page);

  // 葬儀・お墓: checklist and link; a bad link is refused field by field.
  await sectionLink(page, '葬儀・お墓').click();
  await page.getByRole('group', { name: '葬儀に呼んでほしい人' }).getByLabel('家族').check();
  await page.getByRole('group', { name: '葬儀に呼んでほしい人' }).getByLabel('友人').check();
  await page.getByLabel('葬儀社のウェブサイト').fill('ftp://example.jp');
  await saveButton(page).click();
  await expect(
    page.getByText('http:// または https:// で始まるURLを入力してください。'),
  ).toBeVisible();
  await page.getByLabel('葬儀社のウェブサイト').fill('https://example.jp/sougi');
  await saveAndWait(page);

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  expect(overflow, 'no horizontal scrolling at 360 px').toBeLessThanOrEqual(0);
  await keepScreenshot(page, 'endingnote-funeral-mobile');
  await expectNoSeriousA11yViolations(page);

  // The print view opens in a new tab with the whole note in Japanese.
  const [printView] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: '印刷用に表示する' }).click(),
  ]);
  await expect(printView.getByRole('heading', { level: 1 })).toHaveText(
    '山田 花子 さんのエンディングノート',
  );
  await expect(printView.getByText('提供しない')).toBeVisible();
  await printView.close();

  // Unsaved changes, then leaving the page: confirming goes to the target.
  await page.getByLabel('お墓の場所').fill('多磨霊園');
  await page.getByRole('link', { name: '偲ぶ トップページ' }).first().click();
  await expect(warning(page)).toBeVisible();
  await page.getByRole('button', { name: '保存せずに移動する' }).click();
  await expect(page).toHaveURL(/\/$/);

  // Reload shows the saved note, and only what was saved.
  await page.goto(`${notePath}?section=funeral`);
  await expect(page.getByLabel('葬儀社のウェブサイト')).toHaveValue('https://example.jp/sougi');
  await expect(page.getByLabel('家族', { exact: true })).toBeChecked();
  await expect(page.getByLabel('お墓の場所')).toHaveValue('');
  await page.goto(`${notePath}?section=self`);
  await expect(page.getByLabel('家族のこと')).toHaveValue('夫と娘が二人います。\n孫は三人。');
  await expect(page.getByLabel('血液型')).toHaveValue('a');
  await context.close();
});

test('a second tab saving the same section is refused and keeps what it typed', async ({
  browser,
}) => {
  const { context, userId } = await newMemberOnMobile(browser);
  const url = `/endingnote/${userId}?section=message`;
  const first = await context.newPage();
  const second = await context.newPage();
  await first.goto(url);
  await second.goto(url);
  await expect(first.getByLabel('家族へのメッセージ')).toBeVisible();
  await expect(second.getByLabel('家族へのメッセージ')).toBeVisible();

  await first.getByLabel('家族へのメッセージ').fill('一つ目のタブ');
  await saveAndWait(first);
  await second.getByLabel('家族へのメッセージ').fill('二つ目のタブで書いた大切な文章');
  await saveButton(second).click();
  await expect(second.getByRole('alert')).toContainText('別の画面で保存されています');
  await expect(second.getByLabel('家族へのメッセージ')).toHaveValue(
    '二つ目のタブで書いた大切な文章',
  );

  // The member chooses to keep what the second tab typed.
  await second.getByRole('button', { name: '入力した内容で上書き保存する' }).click();
  await expect(second.getByText('保存しました。', { exact: true })).toBeVisible();
  await first.reload();
  await expect(first.getByLabel('家族へのメッセージ')).toHaveValue(
    '二つ目のタブで書いた大切な文章',
  );
  await context.close();
});

test('a designated reader sees only the sections opened to them, read-only', async ({
  browser,
}) => {
  const ownerContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const readerContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const ownerMember = await signUpAndSignIn(ownerContext.request);
  await signUpAndSignIn(readerContext.request);
  const owner = await sessionOf(ownerContext.request);
  const reader = await sessionOf(readerContext.request);

  // The two become connections, and the owner designates the reader.
  const requested = await ownerContext.request.post('/v1/connection/requests', {
    headers: owner.headers,
    data: { to_user_id: reader.id, relationship: 'family' },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  const { requestId } = (await requested.json()) as { requestId: string };
  const accepted = await readerContext.request.post(`/v1/connection/requests/${requestId}/accept`, {
    headers: reader.headers,
    data: { relationship: 'family' },
  });
  expect(accepted.status(), await accepted.text()).toBe(204);

  const page = await ownerContext.newPage();
  await page.goto(`/endingnote/${owner.id}?section=message`);
  await page.getByRole('group', { name: '見られる人' }).getByRole('checkbox').check();
  await page.getByRole('button', { name: '見られる人を保存する' }).click();
  // Who may read the note is a sensitive change: the current password is asked first.
  const proof = page.getByRole('dialog', { name: 'ご本人確認' });
  await expect(proof).toBeVisible();
  await proof.getByLabel('現在のパスワード').fill('not the password');
  await proof.getByRole('button', { name: '確認して変更する' }).click();
  await expect(proof.getByText('現在のパスワードが正しくありません。')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'endingnote-fresh-proof-mobile');
  await proof.getByLabel('現在のパスワード').fill(ownerMember.password);
  await proof.getByRole('button', { name: '確認して変更する' }).click();
  await expect(page.getByText('見られる人を保存しました。')).toBeVisible();
  await expect(proof).toHaveCount(0);
  await page.getByLabel('公開範囲').selectOption({ label: '指定したつながりの方（今から）' });
  await proof.getByLabel('現在のパスワード').fill(ownerMember.password);
  await proof.getByRole('button', { name: '確認して変更する' }).click();
  await expect(page.getByText('公開範囲を変更しました。')).toBeVisible();
  await page.getByLabel('家族へのメッセージ').fill('いつもありがとう。');
  await saveAndWait(page);
  await page.goto(`/endingnote/${owner.id}?section=assets`);
  await page.getByLabel('銀行口座（金融機関・支店・口座の種類）').fill('ゆうちょ銀行 記号 12345');
  await saveAndWait(page);

  const readerPage = await readerContext.newPage();
  await readerPage.goto(`/endingnote/${owner.id}`);
  await expect(readerPage.getByRole('heading', { level: 1 })).toHaveText(
    '山田 花子 さんのエンディングノート',
  );
  const sections = readerPage.getByRole('navigation', { name: 'セクション' }).getByRole('link');
  await expect(sections).toHaveCount(1);
  await expect(readerPage.getByText('いつもありがとう。')).toBeVisible();
  await expect(readerPage.getByRole('textbox')).toHaveCount(0);
  await expect(readerPage.getByText('ゆうちょ銀行')).toHaveCount(0);
  await expectNoSeriousA11yViolations(readerPage);
  await keepScreenshot(readerPage, 'endingnote-reader-mobile');

  // What is not opened to the reader does not exist for them.
  await readerPage.goto(`/endingnote/${owner.id}?section=assets`);
  await expect(readerPage.getByText('ゆうちょ銀行')).toHaveCount(0);
  await ownerContext.close();
  await readerContext.close();
});
