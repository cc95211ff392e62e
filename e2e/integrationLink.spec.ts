import { randomUUID } from 'node:crypto';
import { expect, test } from './support/fixtures';
import { signUpAndSignIn } from './support/members';
import { expectFitsAndAccessible, keepScreenshot, VIEWPORTS } from './support/screens';
import { E2E_FPOS, integrationLinkUrl } from './support/socialProvider';

/**
 * An external service the member uses (a funeral home) sends the member to /integration/link
 * with its proof of asking: the member consents (POST /v1/fpos/verify_my_auth_access_token with
 * client_id, fpos_user_id, the proof and their own access token), sees the linked state, can
 * unlink; the same link does not work twice; once linked again from a new link, the service's
 * report reaches the member (the banner that says it is cancelled), and after the member unlinks
 * in the settings the service can report no more.
 */
test('a member links an external service, is reported by it, and unlinks', async ({ browser }) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  await signUpAndSignIn(context.request);
  const page = await context.newPage();
  const fposUserId = `F-${randomUUID().slice(0, 8)}`;
  const linkUrl = await integrationLinkUrl(context.request, fposUserId);
  const report = () =>
    context.request.post('/v1/fpos/integration/report_death_suspected', {
      headers: {
        authorization: `Basic ${Buffer.from(`${E2E_FPOS.clientId}:${E2E_FPOS.secret}`).toString('base64')}`,
      },
      data: { fpos_user_id: fposUserId },
    });

  // Asked first, with what linking means; linked; unlinked from the same screen.
  const verified = page.waitForRequest(
    (request) =>
      request.url().endsWith('/v1/fpos/verify_my_auth_access_token') && request.method() === 'POST',
  );
  await page.goto(linkUrl);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('外部サービスとの連携');
  await expect(page.getByText(`「${E2E_FPOS.clientId}」と連携します。`)).toBeVisible();
  await expect(page.getByText(/エンディングノートや手紙、メモリアルページを見たり/)).toBeVisible();
  await expect(page.getByText(/見守り役の確認がなければ何も公開されません/)).toBeVisible();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'integration-consent-mobile');
  await page.getByRole('button', { name: '連携する', exact: true }).click();
  const body = (await verified).postDataJSON() as Record<string, unknown>;
  const proof = new URL(linkUrl, 'http://link').searchParams;
  expect(body).toMatchObject({
    client_id: E2E_FPOS.clientId,
    fpos_user_id: fposUserId,
    expires: Number(proof.get('expires')),
    signature: proof.get('signature'),
  });
  expect(body.access_token).toEqual(expect.any(String));
  await expect(page.getByRole('status')).toHaveText(`「${E2E_FPOS.clientId}」と連携しました。`);
  await expectFitsAndAccessible(page);
  await page.getByRole('button', { name: '連携を解除する' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `「${E2E_FPOS.clientId}」との連携を解除しました。`,
  );
  expect((await report()).status()).toBe(404);

  // The same link, from the browser's history, links no more.
  await page.goto(linkUrl);
  await page.getByRole('button', { name: '連携する', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'この連携のお申し込みはすでに使われています。連携を始めたサービスの画面から、もう一度お進みください。',
  );
  await expectFitsAndAccessible(page);
  expect((await report()).status()).toBe(404);

  // Linked again from a new link: the service's report reaches the member, who is told it
  // is cancelled.
  // Every page's header reads the member's own case once it has loaded, and cancels one it
  // finds: that read on this page comes before the report, so that the dashboard's finds it.
  const caseRead = page.waitForResponse((response) =>
    response.url().endsWith('/v1/fpos/death_suspected_user'),
  );
  await page.goto(await integrationLinkUrl(context.request, fposUserId));
  await caseRead;
  await page.getByRole('button', { name: '連携する', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(`「${E2E_FPOS.clientId}」と連携しました。`);
  expect((await report()).status()).toBe(202);
  await page.goto('/dashboard');
  const banner = page.getByRole('status').filter({
    has: page.getByRole('heading', {
      name: 'あなたについて、ご逝去の可能性を示すお知らせが届いていました',
    }),
  });
  await expect(banner).toContainText(
    'ご本人のご利用が確認できたため、取り消しました。何も公開されません。',
  );
  await expect(banner).toContainText('これからも、ログインするだけで同じように取り消されます。');

  // The settings list the link; unlinking there stops the service's reports.
  await page.goto('/death-settings');
  const links = page.getByRole('region', { name: '連携しているサービス' });
  await expect(links.getByText(new RegExp(`^${E2E_FPOS.clientId}\\(.+から連携\\)`))).toBeVisible();
  await links.getByRole('button', { name: '連携を解除する' }).click();
  await expect(links.getByText('連携しているサービスはありません。')).toBeVisible();
  expect((await report()).status()).toBe(404);
  await context.close();
});
