import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { signUpAndSignIn } from './support/members';
import { expectFitsAndAccessible, keepScreenshot, VIEWPORTS } from './support/screens';

/** The signed-in member of a browser context: id and a bearer token for `/v1` calls. */
async function sessionOf(request: APIRequestContext) {
  const session = (await (await request.get('/api/auth/session')).json()) as {
    user: { id: string; accessToken: string };
  };
  return { id: session.user.id, headers: { authorization: `Bearer ${session.user.accessToken}` } };
}

/**
 * Who can see what, as a member checks it at 360 px: from the my page to one list of their
 * page, ending-note sections and letters, each with who sees it now and after their death,
 * and a link to where it is changed.
 */
test('a member sees who can see each of their things, now and after their death', async ({
  browser,
}) => {
  const ownerContext = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  const friendContext = await browser.newContext({ viewport: VIEWPORTS.mobile });
  const ownerMember = await signUpAndSignIn(ownerContext.request);
  await signUpAndSignIn(friendContext.request);
  const owner = await sessionOf(ownerContext.request);
  const friend = await sessionOf(friendContext.request);

  const requested = await ownerContext.request.post('/v1/connection/requests', {
    headers: owner.headers,
    data: { to_user_id: friend.id, relationship: 'family' },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  const { requestId } = (await requested.json()) as { requestId: string };
  const accepted = await friendContext.request.post(`/v1/connection/requests/${requestId}/accept`, {
    headers: friend.headers,
    data: { relationship: 'family' },
  });
  expect(accepted.status(), await accepted.text()).toBe(204);
  const note = `/v1/endingnote/${owner.id}`;
  const proof = { current_password: ownerMember.password };
  for (const [url, data] of [
    [`${note}/readers`, { user_ids: [friend.id], ...proof }],
    [`${note}/sections/funeral/visibility`, { visibility: 'readers_after_death', ...proof }],
  ] as const) {
    const saved = await ownerContext.request.put(url, { headers: owner.headers, data });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  const letter = await ownerContext.request.post('/v1/time_capsule_letter', {
    headers: owner.headers,
    data: {
      title: 'ありがとう',
      body: '今まで本当にありがとう。',
      recipients: [{ kind: 'member', user_id: friend.id }],
      admin_user_ids: [],
      delivery: { rule: 'death', delay_days: 0 },
    },
  });
  expect(letter.status(), await letter.text()).toBe(201);

  const page = await ownerContext.newPage();
  await page.goto('/mypage');
  await page.getByRole('link', { name: '公開範囲の一覧を見る' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('公開範囲の一覧');

  const pages = page.getByRole('region', { name: 'メモリアルページ' });
  const ownPage = pages.getByRole('listitem').filter({ hasText: '(あなたのページ)' });
  await expect(ownPage.getByRole('definition')).toHaveText([
    '管理者とつながりのある方',
    '管理者とつながりのある方。追悼のページとして表示されます',
  ]);

  const endingNote = page.getByRole('region', { name: 'エンディングノート' });
  await expect(
    endingNote.getByText('読める方として、山田 花子 さん を指定しています。'),
  ).toBeVisible();
  const funeral = endingNote.getByRole('listitem').filter({ hasText: '葬儀・お墓' });
  await expect(funeral.getByRole('definition')).toHaveText(['あなただけ', '山田 花子 さん']);
  const medical = endingNote.getByRole('listitem').filter({ hasText: '医療・介護' });
  await expect(medical.getByRole('definition')).toHaveText(['あなただけ', 'あなただけ']);

  const letters = page.getByRole('region', { name: '手紙' });
  const thanks = letters.getByRole('listitem').filter({ hasText: '「ありがとう」' });
  await expect(thanks.getByText('ご逝去の確認後にお届け')).toBeVisible();
  await expect(thanks.getByRole('definition')).toHaveText(['あなただけ', '宛先の 山田 花子 さん']);

  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'visibility-mobile');
  await funeral.getByRole('link', { name: '「葬儀・お墓」の公開範囲を変更する' }).click();
  await expect(page).toHaveURL(new RegExp(`/endingnote/${owner.id}\\?section=funeral$`));
  await ownerContext.close();
  await friendContext.close();
});
