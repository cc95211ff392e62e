/**
 * The unsaved-changes guard's generated paths replayed in the browser on the ending note,
 * against the real server: every path that ends by answering the dialog (cancel, confirm).
 * A hash URL's full page load is replayed in the UI replay (test/unit/unsavedChanges.test.tsx):
 * no screen with a form links to a hash URL on another page.
 */
import { expect, test, type Page } from '@playwright/test';
import {
  unsavedChangesGuardMachine,
  type UnsavedChangesGuardEvent,
} from '../src/machines/unsavedChangesGuard';
import { unsavedChangesGuardEvents } from '../test/model/flowEvents';
import {
  chosenPaths,
  replayInBrowser,
  type BrowserExecutor,
  type BrowserView,
} from './support/flowReplay';
import { signUpAndSignIn } from './support/members';
import { VIEWPORTS } from './support/screens';

type EventType = UnsavedChangesGuardEvent['type'];

const warning = (page: Page) =>
  page.getByRole('dialog', { name: '保存されていない変更があります' });
const nameField = (page: Page) => page.getByLabel('氏名');
const onTheNote = (page: Page) => expect(page).toHaveURL(/\/endingnote\//);

const executors = {
  'FORM.CHANGED': async (page) => {
    await nameField(page).fill(`${await nameField(page).inputValue()}花`);
  },
  'FORM.SAVED': async (page) => {
    await page.getByRole('button', { name: 'このセクションを保存する' }).click();
    await expect(page.getByText('保存しました。', { exact: true })).toBeVisible();
  },
  // Leaving the page for another route: the header's link to the top page.
  NAVIGATE: async (page) => {
    await page.getByRole('link', { name: '偲ぶ トップページ' }).first().click();
  },
  CONFIRM: async (page) => {
    await warning(page).getByRole('button', { name: '保存せずに移動する' }).click();
  },
  CANCEL: async (page) => {
    await warning(page).getByRole('button', { name: 'このページに留まる' }).click();
  },
} satisfies Record<EventType, BrowserExecutor>;

const views: Record<string, BrowserView> = {
  clean: async (page, step) => {
    await expect(warning(page)).toBeHidden();
    if (step?.event.type === 'CONFIRM') await expect(page).toHaveURL(/\/$/);
    else await onTheNote(page);
  },
  dirty: async (page) => {
    await expect(warning(page)).toBeHidden();
    await onTheNote(page);
    // What was typed is still there.
    await expect(nameField(page)).toHaveValue(/花$/);
  },
  warning: async (page) => {
    await expect(warning(page)).toBeVisible();
    await expect(warning(page)).toContainText('入力した内容は保存されません');
    await onTheNote(page);
  },
};

const paths = chosenPaths(
  unsavedChangesGuardMachine,
  {
    events: unsavedChangesGuardEvents.filter(
      (event) => event.type !== 'NAVIGATE' || !event.target.isHashUrl,
    ),
  },
  // The paths that end by answering the dialog.
  (steps) =>
    steps.length > 1 &&
    ['CONFIRM', 'CANCEL'].includes(steps.at(-1)!.event.type) &&
    steps.at(-2)!.states.includes('warning'),
);

test('the chosen paths answer the dialog both ways', () => {
  expect(paths.map((path) => path.steps.at(-1)!.event.type).sort()).toEqual(['CANCEL', 'CONFIRM']);
});

for (const path of paths) {
  test(`unsaved-changes guard: ${path.title}`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
    await signUpAndSignIn(context.request);
    const session = (await (await context.request.get('/api/auth/session')).json()) as {
      user: { id: string };
    };
    const page = await context.newPage();
    await page.goto(`/endingnote/${session.user.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('エンディングノート');
    await replayInBrowser(page, path, executors, views);
    await context.close();
  });
}
