import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';
import { unzip } from '../test/support/unzip';
import { linksMailedTo, signUpAndSignIn } from './support/members';
import { VIEWPORTS } from './support/screens';

/**
 * Taking all of one's data, as a member does it: from the my page they ask for it, give their
 * password, are told by mail, wait while the server's job builds the archive, and download it
 * once; the file is a ZIP of their data with its README.
 */
test('a member asks for all their data on the my page and downloads the archive', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile, acceptDownloads: true });
  const member = await signUpAndSignIn(context.request);
  const page = await context.newPage();
  await page.goto('/mypage');

  const panel = page.getByRole('region', { name: 'データの書き出し' });
  await panel.getByRole('button', { name: 'データの書き出しを申し込む' }).click();
  const proof = page.getByRole('dialog');
  await proof.getByLabel('現在のパスワード').fill(member.password);
  await proof.getByRole('button', { name: /確認/ }).click();
  await expect(page.getByText('お申し込みを受け付けました。', { exact: false })).toBeVisible();
  await expect
    .poll(() => linksMailedTo(member.email, /\/mypage\/change-report/).length, {
      message: 'the notice of the request, with its "this was not me" link',
    })
    .toBe(1);

  // The job builds it in the background; the panel asks again while it is being prepared.
  await expect(panel.getByText('ダウンロードできます')).toBeVisible({ timeout: 30_000 });
  const downloading = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'ダウンロードする' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^shinobu-data-\d{8}\.zip$/);
  const files = await unzip(readFileSync((await download.path())!));
  const profile = JSON.parse(files.get('profile.json')!.body.toString('utf8'));
  expect(profile.email).toBe(member.email);
  expect(files.get('README.txt')!.body.toString('utf8')).toContain('しのぶ');
  await context.close();
});
