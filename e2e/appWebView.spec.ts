import { expect, test } from './support/fixtures';
import { installNativeHost } from './support/nativeHost';
import { signUpAndSignIn } from './support/members';
import { VIEWPORTS, expectFitsAndAccessible, keepScreenshot } from './support/screens';

/**
 * Inside the mobile app's web view there are no tabs, downloads or LINE links: printing,
 * keeping a file and sharing go to the app over the bridge (docs/native-bridge.md). The app
 * is the test host of e2e/support/nativeHost.ts, which records what it is asked.
 */
test('in the app, the ending note prints and saves through the app, and an invitation is shared by it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
  await signUpAndSignIn(context.request);
  const { user } = (await (await context.request.get('/api/auth/session')).json()) as {
    user: { id: string; memorialPageId: string };
  };
  const page = await context.newPage();
  const app = await installNativeHost(page);
  const asked = (type: string) => app.requests.filter((request) => request.type === type);

  await page.goto(`/endingnote/${user.id}`);
  await page.getByLabel('氏名').fill('山田 花子');
  await page.getByRole('button', { name: 'このセクションを保存する' }).click();
  await expect(page.getByText('保存しました。', { exact: true })).toBeVisible();

  // Print: the app gets the whole printable note; no tab opens.
  const exportPanel = page.getByRole('region', { name: '書き出し・印刷' });
  const tabs = context.pages().length;
  await expect(page.getByText('アプリの印刷画面から、印刷やPDFでの保存ができます。')).toBeVisible();
  await page.getByRole('button', { name: '印刷する', exact: true }).click();
  await expect.poll(() => asked('print').length).toBe(1);
  expect(asked('print')[0]!.payload.html).toContain('山田 花子 さんのエンディングノート');
  expect(context.pages()).toHaveLength(tabs);

  // Save as data: the app gets the file with its name and bytes.
  await page.getByRole('button', { name: 'データとして保存する（JSON）' }).click();
  await expect.poll(() => asked('saveFile').length).toBe(1);
  const saved = asked('saveFile')[0]!.payload as Record<string, string>;
  expect(saved.fileName).toMatch(/\.json$/);
  expect(saved.mimeType).toMatch(/^application\/json/);
  expect(Buffer.from(saved.base64!, 'base64').toString('utf8')).toContain('山田 花子');

  // The member closing the app's sheet is no failure; the app failing is said.
  app.failNext.add('print');
  await page.getByRole('button', { name: '印刷する', exact: true }).click();
  await expect.poll(() => asked('print').length).toBe(2);
  await expect(exportPanel.getByRole('alert')).toHaveCount(0);
  app.breakNext.add('saveFile');
  await page.getByRole('button', { name: '印刷用に保存する（HTML）' }).click();
  await expect(exportPanel.getByRole('alert')).toBeVisible();
  await expectFitsAndAccessible(page);
  await keepScreenshot(page, 'app-endingnote-export-mobile');

  // An invitation link goes to the app's share sheet instead of a LINE page.
  await page.goto(`/memory/${user.memorialPageId}`);
  await page.getByRole('button', { name: '招待リンクをつくる' }).click();
  const link = await page.getByLabel('招待リンク', { exact: true }).inputValue();
  await expect(page.getByRole('link', { name: 'LINEで送る' })).toHaveCount(0);
  await page.getByRole('button', { name: 'LINEやメールで送る' }).click();
  await expect.poll(() => asked('share').length).toBe(1);
  expect(asked('share')[0]!.payload).toEqual({
    url: link,
    title: '山田 花子 さんのメモリアルページへの招待',
  });
  app.breakNext.add('share');
  await page.getByRole('button', { name: 'LINEやメールで送る' }).click();
  await expect(
    page.getByText('送る画面を開けませんでした。リンクをコピーして送ってください。'),
  ).toBeVisible();
  await expectFitsAndAccessible(page);
  await context.close();
});
