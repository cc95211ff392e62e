import { randomInt } from 'node:crypto';
import { expect, test, workerServer } from './support/fixtures';
import { expectNoSeriousA11yViolations } from './support/axe';
import { accessTokenOf, registerMember, signUpAndSignIn } from './support/members';
import { keepScreenshot, VIEWPORTS } from './support/screens';

/** A reading no other member of the run has: six random hiragana. */
function uniqueKana(): string {
  return Array.from({ length: 6 }, () => String.fromCharCode(0x3042 + randomInt(0, 80))).join('');
}

test('two members connect through a request found by hiragana search', async ({
  browser,
  playwright,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  await signUpAndSignIn(context.request);
  const page = await context.newPage();

  // The other member gives their name in kanji with its kana, as on my page.
  const other = await playwright.request.newContext({ baseURL: workerServer().baseURL });
  const friend = await accessTokenOf(other, await registerMember(other));
  const auth = { authorization: `Bearer ${friend.accessToken}` };
  const lastNameKana = uniqueKana();
  const renamed = await other.patch('/v1/mypage/profile', {
    headers: auth,
    data: {
      last_name: '検索',
      first_name: '友子',
      last_name_kana: lastNameKana,
      first_name_kana: 'ともこ',
    },
  });
  expect(renamed.status(), await renamed.text()).toBe(200);

  // Found by the hiragana reading (typed in katakana would fold the same way).
  await page.goto('/user-search');
  await page.getByLabel('お名前(漢字・ふりがな)').fill(lastNameKana);
  await page.getByRole('button', { name: '検索する' }).click();
  const result = page.getByRole('listitem').filter({ hasText: '検索 友子' });
  await expect(result).toBeVisible();
  await result.getByLabel('検索 友子 さんとの関係').selectOption('friend');
  await result.getByRole('button', { name: 'つながり申請を送る' }).click();
  await expect(result.getByText('申請中です')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'social-user-search-mobile');

  // The friend accepts; each now sees the other among their connections.
  const requests = await other.get('/v1/connection/requests', { headers: auth });
  const { received } = (await requests.json()) as { received: { requestId: string }[] };
  expect(received).toHaveLength(1);
  const accepted = await other.post(`/v1/connection/requests/${received[0]!.requestId}/accept`, {
    headers: auth,
    data: { relationship: 'family' },
  });
  expect(accepted.status(), await accepted.text()).toBe(204);
  const theirList = await other.get('/v1/connection/connections', { headers: auth });
  expect(((await theirList.json()) as { items: unknown[] }).items).toHaveLength(1);
  await other.dispose();

  await page.goto('/connection');
  const connected = page.getByRole('listitem').filter({ hasText: '検索 友子' });
  await expect(connected).toBeVisible();
  await expect(connected.getByText('相手から見た関係:家族')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await keepScreenshot(page, 'social-connection-mobile');

  await page.goto('/notification/list');
  const notice = page.getByRole('link', { name: /検索 友子 さんがつながり申請を承認しました。/ });
  await expect(notice).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await notice.click();
  await expect(page).toHaveURL(/\/connection$/);
  await context.close();
});
