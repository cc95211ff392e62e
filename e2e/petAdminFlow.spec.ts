/**
 * The pet-admin chart in the browser against the real server: a pet page's admin link sets
 * the 24-hour setting (SET), and 24 hours later, on the browser's clock (started at the
 * server's) and the server's test clock alike, the setting has expired whatever screen is
 * open (the chart's own timer); a registration in pet mode then no longer names the page, so
 * the new member does not become its admin. The path is the model's:
 * SET → xstate.after.untilExpiry; a reload then restores the emptied setting.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, workerServer } from './support/fixtures';
import type { Page } from '@playwright/test';
import { emptyPetAdminSetting, petAdminMachine } from '../src/machines/petAdmin';
import type { PetAdminEvent } from '../src/machines/petAdmin';
import {
  chosenPaths,
  replayInBrowser,
  type BrowserExecutor,
  type BrowserView,
} from './support/flowReplay';
import { sharedInvitation, type SharedInvitation } from './support/invitations';
import { activateFromMail } from './support/members';
import { VIEWPORTS } from './support/screens';
import { serverNow } from './support/serverClock';

/** The spec's lifetime of a pet-admin link, written here rather than taken from the code. */
const TWENTY_FOUR_HOURS = 24 * 60 * 60 * 1000;
const MINUTE = 60_000;

let invitation: SharedInvitation;

const persistedSetting = async (page: Page) =>
  (
    JSON.parse((await page.evaluate(() => localStorage.getItem('persist:shinobu'))) ?? '{}') as {
      memorialAdmin?: unknown;
    }
  ).memorialAdmin;
const tokenOf = (link: string) => new URLSearchParams(link.split('?')[1]).get('shareToken');

const executors = {
  // The pet page's admin link, and 新規登録する on it.
  SET: async (page) => {
    await page.goto(invitation.link);
    await page.getByRole('button', { name: '新規登録する' }).click();
    await expect(page).toHaveURL(/\/register-top\?pet=true$/);
  },
  // A page load restores the persisted setting.
  RESTORED: async (page) => {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('新規登録');
  },
  COMPLETE: async () => {
    throw new Error('not in the chosen path: a pet registration completes it (memorial.spec.ts)');
  },
} satisfies Record<PetAdminEvent['type'], BrowserExecutor>;

/** The chart's delayed expiry: a day passes on both clocks, the registration screen open. */
const expiry: BrowserExecutor = async (page) => {
  const moved = await page.context().request.post('/v1/test/clock', {
    data: { advance_ms: TWENTY_FOUR_HOURS + MINUTE },
  });
  expect(moved.status()).toBe(200);
  await page.clock.fastForward(TWENTY_FOUR_HOURS + MINUTE);
};

const views: Record<string, BrowserView> = {
  inactive: async (page) => {
    // Before the first page there is nothing to restore.
    if (page.url() === 'about:blank') return;
    await expect.poll(() => persistedSetting(page)).toEqual(emptyPetAdminSetting);
  },
  active: async (page) => {
    expect(await persistedSetting(page)).toMatchObject({
      targetMemorialPageEncodedId: tokenOf(invitation.link),
      completed: false,
    });
    await expect(
      page.getByText(
        'ペットのメモリアルページを管理するために、まずあなたのアカウントを作成します。',
      ),
    ).toBeVisible();
  },
  completed: async (page) => {
    expect(await persistedSetting(page)).toMatchObject({ completed: true });
  },
};

const petAdminEvents = (at: number) => (snapshot: { matches: (state: 'active') => boolean }) =>
  [
    ...(snapshot.matches('active') ? [{ type: 'xstate.after.untilExpiry.petAdmin.active' }] : []),
    { type: 'RESTORED', setting: emptyPetAdminSetting, at },
    { type: 'SET', targetMemorialPageEncodedId: 'pet-link', at },
    { type: 'COMPLETE' },
  ] as never;

const [path] = chosenPaths(
  petAdminMachine,
  { events: petAdminEvents(0) },
  (steps) =>
    steps.length === 2 &&
    steps[0]!.event.type === 'SET' &&
    steps[1]!.event.type.startsWith('xstate.after.untilExpiry'),
);

test('a pet-admin link past 24 hours no longer makes the new member its admin', async ({
  browser,
  playwright,
}) => {
  test.slow();
  expect(path, 'the model path SET → expiry').toBeDefined();
  const api = await playwright.request.newContext({ baseURL: workerServer().baseURL });
  invitation = await sharedInvitation(api, { setAdmin: true, pet: true });
  await api.dispose();

  const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
  const page = await context.newPage();
  // The browser's clock starts at the server's (other specs may have moved it on).
  await page.clock.install({ time: await serverNow(context.request) });
  await replayInBrowser(page, path!, { ...executors, [path!.steps[1]!.event.type]: expiry }, views);

  await executors.RESTORED(page);
  await views.inactive!(page, undefined, []);

  // Registering now in pet mode names no page: the new member is no admin of the pet page.
  const email = `late-${randomUUID()}@example.jp`;
  await page.getByLabel('ニックネーム').fill('jiro');
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: true }).fill('a quiet evening by the river');
  await page.getByLabel('姓', { exact: true }).fill('山田');
  await page.getByLabel('名', { exact: true }).fill('次郎');
  await page.getByLabel('せい（ひらがな）').fill('やまだ');
  await page.getByLabel('めい（ひらがな）').fill('じろう');
  await page.getByLabel('お住まいの都道府県').selectOption('東京都');
  await page.getByLabel('生年月日').fill('1960-06-06');
  await page.getByRole('radio', { name: '男性' }).check();
  await page.getByRole('button', { name: '入力内容を確認する' }).click();
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/v1/user');
  await page.getByRole('button', { name: '登録する' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ admin_pet_id: null });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('メールをお送りしました');
  await activateFromMail(page, email, 'a quiet evening by the river');
  await expect(page).toHaveURL(/\/dashboard$/);
  const admins = await context.request.get(
    `/v1/memorial_page/get_memorial_page_admin/${invitation.memorialPageId}`,
  );
  expect(JSON.stringify(await admins.json())).not.toContain('次郎');
  await context.close();
});
