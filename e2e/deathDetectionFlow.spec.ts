/**
 * The death-detection flow's generated paths replayed in Chromium against the real server:
 * every way the flow ends (the death modal in the app web view and in a plain browser, the
 * modals of a never verified and of a half-verified 見守り役 both ways, the member's own
 * suspicion cancelled) and its three
 * error branches. The suspicion, the identity status and the member's own case are the real
 * server's; a failing read is the network failing (503) on that one call.
 */
import { expect, test } from './support/fixtures';
import type { BrowserContext, Page } from '@playwright/test';
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
import { accessTokenOf, signInAs, signUpAndSignIn, type E2eMember } from './support/members';
import { installNativeHost } from './support/nativeHost';
import { VIEWPORTS } from './support/screens';

const SHOWN_KEY = 'lastDeathConfirmationStepsModalShowDate';
const DEATH_MODAL = 'ご逝去の可能性についてのお知らせ';
/** The identity modals the real server's statuses lead to here: its title and way on. */
const IDENTITY_MODALS = {
  unverifiedModal: { title: '見守り役の本人確認がまだです', action: '本人確認を始める' },
  progressModal: { title: '本人確認の手続きが途中です', action: '本人確認を続ける' },
} as const;

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
const identityModal = (page: Page, title: string) => page.getByRole('dialog', { name: title });
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
    await deathModal(page).getByRole('button', { name: 'ご逝去の確認を始める' }).click();
  },
  CLOSE: async (page) => {
    await deathModal(page).getByRole('button', { name: '閉じる' }).click();
  },
  // The one identity modal open: its way on (to start, or to continue, the verification).
  REVERIFY: async (page) => {
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^本人確認を(始める|続ける)$/ })
      .click();
  },
  LATER: async (page) => {
    await page.getByRole('dialog').getByRole('button', { name: 'あとで行う' }).click();
  },
} satisfies Record<FlowEventType, BrowserExecutor>;

const loadedOf = (path: { event: { type: string } }[]) => path[0]!.event as unknown as Loaded;
const noModal = async (page: Page) => {
  await expect(page.getByRole('dialog')).toHaveCount(0);
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
      await expect(modal.getByRole('button', { name: 'ご逝去の確認を始める' })).toBeVisible();
      await expect(modal.getByRole('img', { name: 'App StoreのQRコード' })).toHaveCount(0);
    } else {
      await expect(modal.getByRole('button', { name: 'ご逝去の確認を始める' })).toHaveCount(0);
      // At phone width the store links stand alone: a phone cannot scan its own screen.
      await expect(modal.getByRole('link', { name: /App Storeでアプリを入手/ })).toBeVisible();
      await expect(modal.getByRole('img', { name: 'App StoreのQRコード' })).toBeHidden();
    }
    expect(await page.evaluate((key) => localStorage.getItem(key), SHOWN_KEY)).toBe(
      tokyoDay(Date.now()),
    );
  },
  unverifiedModal: async (page) => {
    const modal = identityModal(page, IDENTITY_MODALS.unverifiedModal.title);
    await expect(modal).toBeVisible();
    await expect(modal).toContainText(
      `${MOTHER} さんについて、ご逝去の可能性があるとのお知らせが届いています。見守り役としてご逝去を確かめるには、先にあなたの本人確認(アプリでの電子証明書の登録)が必要です。数分で終わります。`,
    );
    // Closes only through its two actions: no close button, Escape does nothing.
    await expect(modal.getByRole('button', { name: '閉じる' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(modal).toBeVisible();
  },
  progressModal: async (page) => {
    const modal = identityModal(page, IDENTITY_MODALS.progressModal.title);
    await expect(modal).toBeVisible();
    await expect(modal).toContainText(
      `${MOTHER} さんについて、ご逝去の可能性があるとのお知らせが届いています。あなたの本人確認(電子証明書の登録)が途中のままです。続きを終えると、ご逝去を確かめられるようになります。`,
    );
    await expect(modal.getByRole('button', { name: '閉じる' })).toHaveCount(0);
  },
  done: async (page, step) => {
    switch (step!.event.type) {
      case 'START_CONFIRMATION':
        await expect(page).toHaveURL(/\/death-confirmation$/);
        await expect(
          page.getByText(
            `${MOTHER} さんのご逝去を確かめます。お名前にお間違いがないか、ご確認ください。`,
          ),
        ).toBeVisible();
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
  // The real server answers what this test can set up: never verified, halfway, or active.
  const answered = (status?.output as { authStatus?: string } | undefined)?.authStatus;
  if (answered && !['ACTIVE', 'INITIAL', 'PROGRESS'].includes(answered)) return false;
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
  const states = new Set(paths.flatMap((path) => path.steps.flatMap((step) => step.states)));
  expect(states).toContain('unverifiedModal');
  expect(states).toContain('progressModal');
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

/** The administrator started a verification and left it halfway (status PROGRESS). */
async function startVerification(context: BrowserContext) {
  const { accessToken } = await accessTokenOf(context.request, administratorOf.get(context)!);
  const started = await context.request.post('/v1/identity_verification/challenge', {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(started.status(), await started.text()).toBe(201);
}

const administratorOf = new WeakMap<BrowserContext, E2eMember>();

for (const path of paths) {
  const answeredStatus = (
    outcomeOf(path.steps, 'readIdentityStatus')?.output as { authStatus?: string } | undefined
  )?.authStatus;
  const titled = answeredStatus ? `${path.title} (${answeredStatus})` : path.title;
  test(`death detection: ${titled}`, async ({ browser, playwright }) => {
    test.setTimeout(120_000);
    const loaded = loadedOf(path.steps);
    const found = outcomeOf(path.steps, 'findSuspectedUser');
    const suspect = found?.output as typeof mother | undefined;
    const status = outcomeOf(path.steps, 'readIdentityStatus');
    const context = await browser.newContext({ viewport: VIEWPORTS.mobile, bypassCSP: true });
    const administrator = await signUpAndSignIn(context.request);
    administratorOf.set(context, administrator);
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
    if (
      status?.type === 'xstate.done.actor.readIdentityStatus' &&
      (status.output as { authStatus: string }).authStatus === 'PROGRESS'
    )
      await startVerification(context);

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
