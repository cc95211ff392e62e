/**
 * The death-detection flow's generated paths replayed in Chromium against the real server:
 * every way the flow ends (the death modal in the app web view and in a plain browser, the
 * expired-certificate modal both ways, the member's own suspicion cancelled) and its three
 * error branches. The suspicion, the identity status and the member's own case are the real
 * server's; a failing read is the network failing (503) on that one call.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { deathDetectionMachine, type DeathDetectionEvent } from '../src/machines/deathDetection';
import { deathDetectionEvents, mother, YESTERDAY, TODAY } from '../test/model/sessionFlowEvents';
import { suspectedMemberOf, DAY_MS } from './support/deathCases';
import {
  chosenPaths,
  replayInBrowser,
  type BrowserExecutor,
  type BrowserView,
  type FlowPath,
} from './support/flowReplay';
import { signInAs, signUpAndSignIn } from './support/members';
import { installNativeHost } from './support/nativeHost';
import { VIEWPORTS } from './support/screens';

const SHOWN_KEY = 'lastDeathConfirmationStepsModalShowDate';
const DEATH_MODAL = '死亡の可能性についてのお知らせ';
const EXPIRED_MODAL = '本人確認の有効期限が切れています';

type Loaded = Extract<DeathDetectionEvent, { type: 'LOADED' }>;
type FlowEventType =
  | DeathDetectionEvent['type']
  | `xstate.${'done' | 'error'}.actor.${'findSuspectedUser' | 'cancelSuspicion' | 'readIdentityStatus'}`;

const tokyoDay = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date(ms));

/** The model's days as this browser's: today, yesterday, never. */
const dayInBrowser = (day: string | null) =>
  day === TODAY ? tokyoDay(Date.now()) : day === YESTERDAY ? tokyoDay(Date.now() - DAY_MS) : null;

const deathModal = (page: Page) => page.getByRole('dialog', { name: DEATH_MODAL });
const expiredModal = (page: Page) => page.getByRole('dialog', { name: EXPIRED_MODAL });
const MOTHER = `${mother.lastName} ${mother.firstName}`;

/** The calls the flow made, by path. */
const calls = new WeakMap<Page, string[]>();
const called = (page: Page, path: string) =>
  expect
    .poll(() => calls.get(page)!.filter((seen) => seen.endsWith(path)).length)
    .toBeGreaterThan(0);

// The server answers by itself: an outcome event waits for nothing more than its view.
const serverAnswers: BrowserExecutor = async () => undefined;

const executors = {
  LOADED: async (page) => {
    await page.goto('/dashboard');
  },
  'xstate.done.actor.findSuspectedUser': serverAnswers,
  'xstate.error.actor.findSuspectedUser': serverAnswers,
  'xstate.done.actor.cancelSuspicion': serverAnswers,
  'xstate.error.actor.cancelSuspicion': serverAnswers,
  'xstate.done.actor.readIdentityStatus': serverAnswers,
  'xstate.error.actor.readIdentityStatus': serverAnswers,
  START_CONFIRMATION: async (page) => {
    await deathModal(page).getByRole('button', { name: '死亡確認を始める' }).click();
  },
  CLOSE: async (page) => {
    await deathModal(page).getByRole('button', { name: '閉じる' }).click();
  },
  REVERIFY: async (page) => {
    await expiredModal(page).getByRole('button', { name: '本人確認をやり直す' }).click();
  },
  LATER: async (page) => {
    await expiredModal(page).getByRole('button', { name: 'あとで行う' }).click();
  },
} satisfies Record<FlowEventType, BrowserExecutor>;

const loadedOf = (path: { event: { type: string } }[]) => path[0]!.event as unknown as Loaded;
const noModal = async (page: Page) => {
  await expect(deathModal(page)).toHaveCount(0);
  await expect(expiredModal(page)).toHaveCount(0);
};

const views: Record<string, BrowserView> = {
  waitingForLoad: async (page) => {
    await noModal(page);
  },
  checking: async (page) => {
    await called(page, '/v1/fpos/death_suspected_user');
  },
  cancelling: async (page) => {
    await called(page, '/v1/fpos/cancel_death_suspected_at');
  },
  readingIdentityStatus: async (page) => {
    await called(page, '/v1/identity_verification/status');
  },
  deathModal: async (page, _step, path) => {
    const modal = deathModal(page);
    await expect(modal).toBeVisible();
    await expect(modal.getByText(`${MOTHER} さんについて`, { exact: false })).toBeVisible();
    if (loadedOf(path).inApp) {
      await expect(modal.getByRole('button', { name: '死亡確認を始める' })).toBeVisible();
      await expect(modal.getByRole('img', { name: 'App StoreのQRコード' })).toHaveCount(0);
    } else {
      await expect(modal.getByRole('button', { name: '死亡確認を始める' })).toHaveCount(0);
      await expect(modal.getByRole('img', { name: 'App StoreのQRコード' })).toBeVisible();
    }
    expect(await page.evaluate((key) => localStorage.getItem(key), SHOWN_KEY)).toBe(
      tokyoDay(Date.now()),
    );
  },
  expiredModal: async (page) => {
    const modal = expiredModal(page);
    await expect(modal).toBeVisible();
    await expect(modal.getByText(`${MOTHER} さんについて`, { exact: false })).toBeVisible();
    // Closes only through its two actions: no close button, Escape does nothing.
    await expect(modal.getByRole('button', { name: '閉じる' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(modal).toBeVisible();
  },
  done: async (page, step) => {
    switch (step!.event.type) {
      case 'START_CONFIRMATION':
        await expect(page).toHaveURL(/\/death-confirmation$/);
        await expect(page.getByText(`死亡確認を行う方は ${MOTHER} さんです。`)).toBeVisible();
        return;
      case 'REVERIFY':
        await expect(page).toHaveURL(/\/identity-verification$/);
        await noModal(page);
        return;
      case 'xstate.done.actor.cancelSuspicion':
        await expect(page.getByText(/取り消しました。何も公開されません。/)).toBeVisible();
        break;
      case 'xstate.error.actor.cancelSuspicion':
        await expect(page.getByRole('alert')).toContainText('自動で取り消すことができませんでした');
        break;
    }
    await expect(page).toHaveURL(/\/dashboard$/);
    await noModal(page);
    // Not asked again today, whatever the flow answered.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForTimeout(500);
    await noModal(page);
  },
};

/** One outcome of an actor along the path, by the actor and the output's shape. */
const outcomeOf = (steps: FlowPath['steps'], actor: string) =>
  steps.find((step) => step.event.type.endsWith(`.actor.${actor}`))?.event as
    { type: string; output?: unknown } | undefined;

const paths = chosenPaths(deathDetectionMachine, { events: deathDetectionEvents }, (steps) => {
  const loaded = loadedOf(steps);
  const found = outcomeOf(steps, 'findSuspectedUser');
  const suspect = found?.output as typeof mother | null | undefined;
  const status = outcomeOf(steps, 'readIdentityStatus');
  const last = steps.at(-1)!;
  if (!last.states.includes('done')) return false;
  // The real server has no case in grace to show an administrator, nor a modal to skip today.
  if (suspect && suspect.state === 'grace') return false;
  if (loaded.lastShownDate === TODAY) return false;
  // In the app, an unshown day; in the browser, the day after one shown.
  if (loaded.inApp !== (loaded.lastShownDate === null)) return false;
  if (found?.type.startsWith('xstate.done') && suspect === null) return false;
  // The plain browser's one difference is the death modal.
  if (!loaded.inApp && suspect?.userId !== mother.userId) return false;
  return (
    status === undefined ||
    ['START_CONFIRMATION', 'REVERIFY', 'LATER'].includes(last.event.type) ||
    status.type.startsWith('xstate.error')
  );
});

test('the chosen paths end every way the flow ends and take every error branch', () => {
  const endings = paths.map((path) => path.steps.at(-1)!.event.type);
  for (const ending of [
    'START_CONFIRMATION',
    'CLOSE',
    'REVERIFY',
    'LATER',
    'xstate.done.actor.cancelSuspicion',
    'xstate.error.actor.cancelSuspicion',
    'xstate.error.actor.findSuspectedUser',
    'xstate.error.actor.readIdentityStatus',
  ])
    expect(endings).toContain(ending);
});

/** In the app, the administrator's identity verified, with no modal of the flow in the way. */
async function verifyIdentity(context: BrowserContext) {
  const page = await context.newPage();
  await installNativeHost(page);
  await page.addInitScript(
    ([key, today]) => localStorage.setItem(key!, today!),
    [SHOWN_KEY, tokyoDay(Date.now())],
  );
  await page.goto('/identity-verification');
  await page.getByRole('button', { name: '本人確認を始める' }).click();
  await expect(page.getByText(/本人確認は完了しています。/)).toBeVisible();
  await page.close();
}

for (const path of paths) {
  test(`death detection: ${path.title}`, async ({ browser, playwright }) => {
    test.setTimeout(120_000);
    const loaded = loadedOf(path.steps);
    const found = outcomeOf(path.steps, 'findSuspectedUser');
    const suspect = found?.output as typeof mother | undefined;
    const status = outcomeOf(path.steps, 'readIdentityStatus');
    const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
    const administrator = await signUpAndSignIn(context.request);
    let disposeMember: () => Promise<void> = async () => undefined;
    if (found?.type.startsWith('xstate.done') || found === undefined) {
      // The member's own suspicion: this browser is the suspected member's, signed in before
      // the report (a sign-in after it ends the case on the server at once).
      const own = found !== undefined && suspect?.userId !== mother.userId;
      const { memberApi } = await suspectedMemberOf(context.request, administrator, playwright, {
        confirmable: false,
        beforeReport: own ? (member) => signInAs(context.request, member) : undefined,
      });
      disposeMember = () => memberApi.dispose();
    }
    if (
      status?.type === 'xstate.done.actor.readIdentityStatus' &&
      (status.output as { authStatus: string }).authStatus === 'ACTIVE'
    )
      await verifyIdentity(context);

    const page = await context.newPage();
    if (loaded.inApp) await installNativeHost(page);
    // The day a modal was last shown, as the path's LOADED says, set once before the app runs.
    await page.addInitScript(
      ([key, day]) => {
        if (sessionStorage.getItem('seeded')) return;
        sessionStorage.setItem('seeded', '1');
        if (day) localStorage.setItem(key!, day);
        else localStorage.removeItem(key!);
      },
      [SHOWN_KEY, dayInBrowser(loaded.lastShownDate)],
    );
    // An error branch is that one call failing on the network.
    for (const [actor, url] of [
      ['findSuspectedUser', '**/v1/fpos/death_suspected_user'],
      ['readIdentityStatus', '**/v1/identity_verification/status'],
      ['cancelSuspicion', '**/v1/fpos/cancel_death_suspected_at'],
    ] as const) {
      if (path.steps.some((step) => step.event.type === `xstate.error.actor.${actor}`))
        await page.route(url, (route) => route.fulfill({ status: 503, body: '{}' }));
    }
    const seen: string[] = [];
    calls.set(page, seen);
    page.on('request', (request) => seen.push(new URL(request.url()).pathname));

    await replayInBrowser(page, path, executors, views);
    await disposeMember();
    await context.close();
  });
}
