/**
 * The unsaved-changes guard's generated paths replayed in the browser on the ending note,
 * against the real server: every path that ends by answering the dialog (cancel, confirm).
 * Each path starts on a page with a hash URL and goes to the note through the main menu, so
 * that the browser's Back is a way out of the note to a hash URL, which is loaded in full.
 */
import { expect, test } from './support/fixtures';
import type { Page } from '@playwright/test';
import {
  unsavedChangesGuardMachine,
  type NavigationTarget,
  type UnsavedChangesGuardEvent,
} from '../src/machines/unsavedChangesGuard';
import { hashTarget, unsavedChangesGuardEvents } from '../test/model/flowEvents';
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

/** The page with a hash URL each path starts on: the model's hash URL. */
const HASH_START = hashTarget.href;
/** Where the last NAVIGATE of the path being replayed went. */
let leftFor: NavigationTarget | undefined;

const executors = {
  'FORM.CHANGED': async (page) => {
    await nameField(page).fill(`${await nameField(page).inputValue()}花`);
  },
  'FORM.SAVED': async (page) => {
    await page.getByRole('button', { name: 'このセクションを保存する' }).click();
    await expect(page.getByText('保存しました。', { exact: true })).toBeVisible();
  },
  // Leaving the page: for another route by the header's link to the top page, for the hash URL
  // the path started on by the browser's Back.
  NAVIGATE: async (page, event) => {
    leftFor = (event as Extract<UnsavedChangesGuardEvent, { type: 'NAVIGATE' }>).target;
    if (leftFor.isHashUrl) {
      // Marks this document, so that the view after CONFIRM can tell a full load from it.
      await page.evaluate(() => Object.assign(window, { beforeLeaving: true }));
      await page.goBack();
    } else await page.getByRole('link', { name: '偲ぶ トップページ' }).first().click();
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
    if (step?.event.type === 'CONFIRM' && leftFor?.isHashUrl) {
      await expect(page).toHaveURL(new RegExp(`${HASH_START}$`));
      // Loaded in full: a new document, not the one the member left.
      expect(await page.evaluate(() => 'beforeLeaving' in window)).toBe(false);
    } else if (step?.event.type === 'CONFIRM') await expect(page).toHaveURL(/\/$/);
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
  { events: unsavedChangesGuardEvents },
  // The paths that end by answering the dialog.
  (steps) =>
    steps.length > 1 &&
    ['CONFIRM', 'CANCEL'].includes(steps.at(-1)!.event.type) &&
    steps.at(-2)!.states.includes('warning'),
);

test('the chosen paths answer the dialog both ways, for a route and for a hash URL', () => {
  const endings = paths.map((path) => {
    const leaving = path.steps.findLast((step) => step.event.type === 'NAVIGATE')!.event as Extract<
      UnsavedChangesGuardEvent,
      { type: 'NAVIGATE' }
    >;
    return `${leaving.target.isHashUrl ? 'hash' : 'route'} ${path.steps.at(-1)!.event.type}`;
  });
  expect(endings.sort()).toEqual(['hash CANCEL', 'hash CONFIRM', 'route CANCEL', 'route CONFIRM']);
});

/** A path's title, naming where its NAVIGATE goes (the event's type alone does not). */
const titleOf = (path: (typeof paths)[number]) =>
  path.steps
    .map(({ event }) =>
      event.type === 'NAVIGATE'
        ? `NAVIGATE to ${(event as Extract<UnsavedChangesGuardEvent, { type: 'NAVIGATE' }>).target.isHashUrl ? 'a hash URL' : 'a route'}`
        : event.type,
    )
    .join(' → ');

for (const path of paths) {
  test(`unsaved-changes guard: ${titleOf(path)}`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await signUpAndSignIn(context.request);
    const session = (await (await context.request.get('/api/auth/session')).json()) as {
      user: { id: string };
    };
    const page = await context.newPage();
    leftFor = undefined;
    await page.goto(HASH_START);
    await page
      .getByRole('navigation', { name: 'メインメニュー' })
      .getByRole('button', { name: 'エンディングノート' })
      .click();
    await expect(page).toHaveURL(`/endingnote/${session.user.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('エンディングノート');
    await replayInBrowser(page, path, executors, views);
    await context.close();
  });
}
