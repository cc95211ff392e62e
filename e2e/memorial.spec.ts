import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test, workerServer } from './support/fixtures';
import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import {
  accessTokenOf,
  activateFromMail,
  registerMember,
  signUpAndSignIn,
} from './support/members';
import { expectFitsAndAccessible, keepScreenshot, VIEWPORTS } from './support/screens';

const PASSWORD = 'a quiet evening by the river';

/** A real photo on disk, made now: a small JPEG the server must decode and thumbnail. */
async function photoOnDisk(): Promise<string> {
  const dir = path.resolve('test-results/e2e-fixtures');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'pochi.jpg');
  await sharp({
    create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 150, b: 90 } },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg width="640" height="480"><circle cx="320" cy="240" r="150" fill="#553311"/></svg>',
        ),
      },
    ])
    .jpeg({ quality: 85 })
    .toFile(file);
  return file;
}

async function mobilePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  return context.newPage();
}

/** The admin's invitation link, made on the page's sharing panel. */
async function makeInvitationLink(page: Page, asAdmin: boolean): Promise<string> {
  const setAdmin = page.getByLabel('受け取った方をこのページの管理者にする');
  await setAdmin.setChecked(asAdmin);
  await page.getByRole('button', { name: '招待リンクをつくる' }).click();
  const link = page.getByLabel('招待リンク', { exact: true });
  await expect(link).toHaveValue(/\/memory\/invitation\?shareToken=/);
  await expect(page.getByRole('link', { name: 'LINEで送る' })).toHaveAttribute(
    'href',
    /^https:\/\/social-plugins\.line\.me\/lineit\/share\?url=/,
  );
  return link.inputValue();
}

test('a pet page: photo, history, an admin invited by link who registers, an approved condolence', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const owner = await mobilePage(browser);
  await signUpAndSignIn(owner.context().request);

  // Creation: the memoryCreation flow, pet branch.
  await owner.goto('/memory/new');
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText('メモリアルページをつくる');
  await expectFitsAndAccessible(owner);
  await owner.getByRole('button', { name: 'ペットのページ' }).click();
  await owner.getByLabel('お名前', { exact: true }).fill('ポチ');
  await owner.getByLabel('めい（ひらがな）').fill('ぽち');
  await owner.getByLabel('動物の種類（例: 柴犬）').fill('柴犬');
  await owner.getByLabel('ご命日').fill('2026-03-01');
  // A typing slip is told in Japanese and nothing is sent.
  await owner.getByLabel('せい（ひらがな）').fill('ヤマダ');
  await owner.getByRole('button', { name: 'ページをつくる' }).click();
  await expect(owner.getByText('ひらがなで入力してください。')).toBeVisible();
  await owner.getByLabel('せい（ひらがな）').fill('やまだ');
  await expectFitsAndAccessible(owner);
  await keepScreenshot(owner, 'memorial-new-pet-mobile');
  await owner.getByRole('button', { name: 'ページをつくる' }).click();
  await expect(owner).toHaveURL(/\/memory\/[0-9a-f-]{36}$/);
  const pageUrl = new URL(owner.url()).pathname;
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText('ポチ');
  await expect(owner.getByText('柴犬', { exact: true })).toBeVisible();
  await expect(owner.getByText('2026年3月1日')).toBeVisible();
  await expect(owner.getByText('四十九日 2026年4月18日')).toBeVisible();

  // Album: a photo from disk, shown through its server-made thumbnail.
  await owner
    .getByLabel('写真（JPEG・PNG・WebP、10MBまで）', { exact: true })
    .setInputFiles(await photoOnDisk());
  await owner.getByLabel('ひとこと（任意）').fill('散歩の日');
  await owner.getByRole('button', { name: '写真を追加する' }).click();
  const thumbnail = owner.getByRole('img', { name: '散歩の日' });
  await expect(thumbnail).toBeVisible();
  await expect(thumbnail).toHaveAttribute('src', /\/files\/thumbs\/.+\.webp\?/);
  await expect
    .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);

  // Its caption and date are changed in place.
  await owner.getByRole('button', { name: '「散歩の日」のひとことと撮影日を編集する' }).click();
  const photoItem = owner.locator('#album li');
  await photoItem.getByLabel('ひとこと（任意）').fill('はじめての散歩');
  await photoItem.getByLabel('撮影日（任意）').fill('2012-05-05');
  await photoItem.getByRole('button', { name: '保存する' }).click();
  await expect(owner.getByRole('img', { name: 'はじめての散歩' })).toBeVisible();
  await expect(photoItem.getByText('2012年5月5日')).toBeVisible();

  // A file that is not an image is refused with a clear message.
  await owner.getByLabel('写真（JPEG・PNG・WebP、10MBまで）', { exact: true }).setInputFiles({
    name: 'letter.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('not a photo'),
  });
  await owner.getByRole('button', { name: '写真を追加する' }).click();
  await expect(owner.getByText('画像ファイル(JPEG・PNG・WebP)を選んでください。')).toBeVisible();
  await owner.getByLabel('写真（JPEG・PNG・WebP、10MBまで）', { exact: true }).setInputFiles([]);

  // History: one dated entry.
  await owner.getByLabel('日付', { exact: true }).fill('2012-04-01');
  await owner.getByLabel('できごと').fill('わが家にやってきた日。');
  await owner.getByRole('button', { name: '書き加える' }).click();
  await expect(owner.getByText('わが家にやってきた日。')).toBeVisible();
  await expect(owner.getByText('2012年4月1日')).toBeVisible();

  // Privacy: open to everyone, so that a signed-out reader can look too.
  await owner.getByRole('radio', { name: 'どなたでも（ログインしていない方も）' }).check();
  await owner.getByRole('button', { name: '公開範囲を保存する' }).click();
  await expect(owner.getByText('公開範囲を保存しました。')).toBeVisible();
  await expectFitsAndAccessible(owner);
  await keepScreenshot(owner, 'memorial-page-admin-mobile');

  // Invitation as admin: a newcomer registers from the link (pet mode) and becomes admin.
  const adminLink = await makeInvitationLink(owner, true);
  expect(new URL(adminLink).searchParams.get('pet')).toBe('true');
  const newcomer = await mobilePage(browser);
  await newcomer.goto(adminLink);
  await expect(newcomer.getByRole('heading', { level: 1 })).toHaveText('招待');
  await expect(
    newcomer.getByText('メモリアルページの管理者への招待が届いています。'),
  ).toBeVisible();
  await expectFitsAndAccessible(newcomer);
  await newcomer.getByRole('button', { name: '新規登録する' }).click();
  await expect(newcomer).toHaveURL(/\/register-top\?pet=true$/);
  const email = `newcomer-${randomUUID()}@example.jp`;
  await newcomer.getByLabel('ニックネーム').fill('jiro');
  await newcomer.getByLabel('メールアドレス').fill(email);
  await newcomer.getByLabel('パスワード', { exact: true }).fill(PASSWORD);
  await newcomer.getByLabel('姓', { exact: true }).fill('山田');
  await newcomer.getByLabel('名', { exact: true }).fill('次郎');
  await newcomer.getByLabel('せい（ひらがな）').fill('やまだ');
  await newcomer.getByLabel('めい（ひらがな）').fill('じろう');
  await newcomer.getByLabel('お住まいの都道府県').selectOption('東京都');
  await newcomer.getByLabel('生年月日').fill('1960-06-06');
  await newcomer.getByRole('radio', { name: '男性' }).check();
  await newcomer.getByRole('button', { name: '入力内容を確認する' }).click();
  await newcomer.getByRole('button', { name: '登録する' }).click();
  await expect(newcomer.getByRole('heading', { level: 1 })).toHaveText('メールをお送りしました');
  const petSetting = await newcomer.evaluate(() => localStorage.getItem('persist:shinobu'));
  expect(JSON.parse(petSetting ?? '{}')).toMatchObject({ memorialAdmin: { completed: true } });
  await activateFromMail(newcomer, email, PASSWORD);
  await expect(newcomer).toHaveURL(/\/dashboard$/);
  await newcomer.goto(pageUrl);
  await expect(newcomer.getByRole('button', { name: 'プロフィールを編集する' })).toBeVisible();
  const admins = newcomer.locator('#admins').getByRole('listitem');
  await expect(admins).toHaveCount(2);
  await expect(admins.filter({ hasText: '山田 次郎' })).toBeVisible();

  // Invitation without admin rights: a member opens it signed in and is connected.
  const visitorLink = await makeInvitationLink(owner, false);
  const visitor = await mobilePage(browser);
  await signUpAndSignIn(visitor.context().request);
  await visitor.goto(visitorLink);
  await expect(visitor.getByText('招待した方とつながりました。')).toBeVisible();
  await visitor.getByRole('link', { name: 'メモリアルページを見る' }).click();
  await expect(visitor).toHaveURL(new RegExp(`${pageUrl}$`));
  await expect(visitor.getByRole('img', { name: 'はじめての散歩' })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'プロフィールを編集する' })).toHaveCount(0);
  await expect(visitor.getByRole('button', { name: '写真を追加する' })).toHaveCount(0);
  await expectFitsAndAccessible(visitor);
  await keepScreenshot(visitor, 'memorial-page-visitor-mobile');

  // Mourning: a flower and a condolence that waits for approval.
  await visitor.getByRole('link', { name: /追悼ページへ/ }).click();
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('ポチ さんの追悼ページ');
  await visitor.getByRole('button', { name: '献花する' }).click();
  await expect(visitor.getByText('これまでの献花 1 本')).toBeVisible();
  await visitor.getByLabel('お悔やみのことば').fill('ポチくん、たくさんの思い出をありがとう。');
  await visitor.getByRole('button', { name: '記帳する' }).click();
  await expect(
    visitor.getByText('記帳しました。管理者が承認すると、ほかの方にも表示されます。'),
  ).toBeVisible();
  await expect(visitor.getByText('ポチくん、たくさんの思い出をありがとう。')).toBeVisible();
  await expectFitsAndAccessible(visitor);
  await keepScreenshot(visitor, 'memorial-mourning-visitor-mobile');

  // Someone else (signed out, the page is public) does not see it yet.
  const reader = await mobilePage(browser);
  await reader.goto(`${pageUrl}/mourning`);
  await expect(reader.getByText('これまでの献花 1 本')).toBeVisible();
  await expect(reader.getByText('まだ記帳はありません。')).toBeVisible();
  await expectFitsAndAccessible(reader);

  // An admin approves it; now everyone sees it.
  await owner.goto(`${pageUrl}/mourning`);
  await expect(owner.getByText('承認を待っている記帳が 1 件あります。')).toBeVisible();
  await expectFitsAndAccessible(owner);
  await keepScreenshot(owner, 'memorial-mourning-admin-mobile');
  await owner.getByRole('button', { name: /さんの記帳を承認する$/ }).click();
  await expect(owner.getByText('承認を待っている記帳が 1 件あります。')).toHaveCount(0);
  await reader.reload();
  await expect(reader.getByText('ポチくん、たくさんの思い出をありがとう。')).toBeVisible();

  for (const page of [owner, newcomer, visitor, reader]) await page.context().close();
});

test('the own page top guides a sparse page to its first photo, entry and admin', async ({
  browser,
}) => {
  const page = await mobilePage(browser);
  await signUpAndSignIn(page.context().request);
  await page.goto('/memory/top/me');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('わたしのメモリアルページ');
  await expect(page.getByText('山田 花子 さんのページです。')).toBeVisible();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'memorial-top-me-mobile');
  await page.getByRole('link', { name: '写真を追加する' }).click();
  await expect(page).toHaveURL(/\/memory\/[0-9a-f-]{36}#album$/);
  await expect(page.getByText('まだ写真がありません。最初の一枚を追加しましょう。')).toBeVisible();
  await page.context().close();
});

test('a signed-out invitee keeps the invitation through login and is connected', async ({
  browser,
  playwright,
}) => {
  const api = await playwright.request.newContext({ baseURL: workerServer().baseURL });
  const inviter = await registerMember(api);
  const login = await accessTokenOf(api, inviter);
  const created = await api.post('/v1/share_token/create_share_token', {
    headers: { authorization: `Bearer ${login.accessToken}` },
    data: { memorial_page_id: login.memorialPageId, set_admin: false },
  });
  expect(created.status(), await created.text()).toBe(201);
  const share = (await created.json()) as { token: string; invitingUserId: string };
  const link = `/memory/invitation?${new URLSearchParams({
    shareToken: share.token,
    invitingUserId: share.invitingUserId,
    setAdmin: 'false',
  })}`;
  const invitee = await registerMember(api);
  await api.dispose();

  const page = await mobilePage(browser);
  await page.goto(link);
  await expect(page.getByText('メモリアルページへの招待が届いています。')).toBeVisible();
  await page.getByRole('button', { name: 'ログインする' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('メールアドレス').fill(invitee.email);
  await page.getByLabel('パスワード', { exact: true }).fill(invitee.password);
  await page.getByRole('button', { name: 'ログインする' }).click();
  await expect(page).toHaveURL(/\/memory\/invitation$/);
  await expect(page.getByText('招待した方とつながりました。')).toBeVisible();
  await expectFitsAndAccessible(page);
  await page.getByRole('link', { name: 'メモリアルページを見る' }).click();
  await expect(page).toHaveURL(new RegExp(`/memory/${login.memorialPageId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('山田 花子');

  // The link is used up. The screen says so in its content and in a toast (both alerts);
  // which one comes first depends on which chunk arrives first.
  await page.goto(link);
  await expect(page.locator('#content').getByRole('alert')).toContainText(
    '招待リンクが無効か、有効期限が切れています。',
  );
  await page.context().close();
});
