/**
 * The auth session in the browser, against the real server, a fresh member per path: an
 * update sent while the session refetches waits for the refetch and settles (the model path
 * REFETCH → UPDATE → done.refetchSession → done.updateSession); then generated paths of the
 * machine replayed with flowReplay: the member signing out, the sign-out at start for a
 * stored user that is not valid (answered, and refused by the server), a refetch the server
 * answers with an error, and a refetch that finds the session ended by another tab.
 */
import { expect, test } from './support/fixtures';
import type { Page } from '@playwright/test';
import { headerShows } from './support/header';
import { authSessionMachine } from '../src/machines/authSession';
import { authSessionEvents, authSessionSerialize } from '../test/model/sessionFlowEvents';
import {
  chosenPaths,
  replayInBrowser,
  type BrowserExecutor,
  type BrowserView,
  type FlowStep,
} from './support/flowReplay';
import { untilHydrated } from './support/hydration';
import { signUpAndSignIn } from './support/members';
import { VIEWPORTS } from './support/screens';

test('a password change made while the session refetches settles', async ({ browser }) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
  const member = await signUpAndSignIn(context.request);
  const page = await context.newPage();
  await page.goto('/mypage');
  await expect(page.locator('#mypage-current-password')).toBeEditable();

  // The next read of the session is held on the network until the update has been asked for.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let refetchHeld = false;
  await page.route('**/api/auth/session', async (route) => {
    if (route.request().method() !== 'GET' || refetchHeld) return route.continue();
    refetchHeld = true;
    await released;
    await route.continue();
  });
  const order: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/auth/session' || url.pathname === '/v1/mypage/password')
      order.push(`${request.method()} ${url.pathname}`);
  });

  // Coming back to the tab refetches the session (REFETCH).
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect.poll(() => refetchHeld).toBe(true);

  await page.locator('#mypage-current-password').fill(member.password);
  await page.locator('#mypage-new-password').fill('a brand new passphrase');
  await page.locator('#mypage-new-password-repeat').fill('a brand new passphrase');
  const changed = page.waitForResponse((response) =>
    response.url().endsWith('/v1/mypage/password'),
  );
  await page.getByRole('button', { name: 'パスワードを変更する' }).click();
  expect((await changed).status()).toBe(200);
  // The UPDATE has now reached the session while its refetch is in flight: it must wait,
  // not be dropped, so the form may not report success yet.
  await page.waitForTimeout(300);
  expect(order.filter((entry) => entry === 'POST /api/auth/session')).toEqual([]);
  await expect(page.getByText(/パスワードを変更しました。/)).toBeHidden();

  const askedBeforeRelease = order.length;
  release();
  await expect(page.getByText(/パスワードを変更しました。/)).toBeVisible();
  expect(order.slice(askedBeforeRelease)).toContain('POST /api/auth/session');

  // The fresh session took: this device is still signed in after a reload.
  await page.reload();
  await expect(page.locator('#mypage-current-password')).toBeEditable();
  await expect(page).toHaveURL(/\/mypage$/);
  await context.close();
});

/* ---------- generated paths ---------- */

type ReplayedEvent =
  | 'xstate.done.actor.fetchSession'
  | `xstate.${'done' | 'error'}.actor.${'refetchSession' | 'signOut'}`
  | 'REFETCH'
  | 'SIGN_OUT';

/** How a path's REFETCH comes about, and what the server is made to answer, per page. */
interface Scene {
  /** REFETCH is another tab of this browser signing out (else the member comes back). */
  otherTab: boolean;
  /** The session layer's traffic so far: `asked METHOD /path`, then `METHOD /path status`. */
  answers: string[];
}
const scenes = new WeakMap<Page, Scene>();
const answered = (page: Page, entry: RegExp) =>
  expect.poll(() => scenes.get(page)!.answers.some((seen) => entry.test(seen))).toBe(true);

const awaitAnswer = (entry: RegExp) => (page: Page) => answered(page, entry);

const browserExecutors = {
  // The member opens the sign-out screen: the server's page carries their session.
  'xstate.done.actor.fetchSession': async (page) => {
    await page.goto('/logout');
    await untilHydrated(page);
  },
  SIGN_OUT: async (page) => {
    if (page.url() === 'about:blank') {
      // A stored user id that is not a string is a corrupt session: the app signs out as it starts.
      await page.addInitScript(() =>
        localStorage.setItem('persist:shinobu', JSON.stringify({ user: { id: 7 } })),
      );
      await page.goto('/logout');
      return;
    }
    await page.getByRole('button', { name: 'ログアウト', exact: true }).click();
  },
  'xstate.done.actor.signOut': awaitAnswer(/^POST \/api\/auth\/signout 200$/),
  'xstate.error.actor.signOut': awaitAnswer(/^POST \/api\/auth\/signout 503$/),
  REFETCH: async (page) => {
    if (!scenes.get(page)!.otherTab) {
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      return;
    }
    // Another tab of the same browser signs out: it tells this one, which reads the cookie.
    const other = await page.context().newPage();
    await other.goto('/logout');
    await untilHydrated(other);
    await other.getByRole('button', { name: 'ログアウト', exact: true }).click();
    await expect(other).toHaveURL(/\/login/);
    await other.close();
  },
  'xstate.done.actor.refetchSession': awaitAnswer(/^GET \/api\/auth\/session 200$/),
  'xstate.error.actor.refetchSession': awaitAnswer(/^GET \/api\/auth\/session 503$/),
} satisfies Record<ReplayedEvent, BrowserExecutor>;

const signedOutOnServer = (path: FlowStep[]) =>
  !path.some((done) => done.event.type === 'xstate.error.actor.signOut');

const browserViews: Record<string, BrowserView> = {
  // Before the page is opened: the session has not been read.
  loading: async (page) => {
    expect(page.url()).toBe('about:blank');
  },
  'authenticated.idle': async (page, step) => {
    await headerShows(page, 'member');
    // A refetch that failed keeps the member signed in, on this page and after a reload.
    if (step?.event.type === 'xstate.error.actor.refetchSession') {
      await page.reload();
      await headerShows(page, 'member');
    }
  },
  'authenticated.refetching': async (page) => {
    // Its answer may already be in: only the read is certain here.
    await answered(page, /^asked GET \/api\/auth\/session$/);
  },
  signingOut: async (page) => {
    // The tokens go at once: the header is the visitor's while the sign-out is being made.
    await headerShows(page, 'visitor');
    await answered(page, /^asked POST \/api\/auth\/signout$/);
  },
  'unauthenticated.idle': async (page, _step, path) => {
    await headerShows(page, 'visitor');
    // The server ended the session too: a reload finds no member. After a sign-out the server
    // refused, the reload sends it again: e2e/owedSignOut.spec.ts.
    if (signedOutOnServer(path)) {
      await page.reload();
      await headerShows(page, 'visitor');
    }
  },
};

/** The paths replayed: each ending of a sign-out, and each answer of a refetch but the session. */
const REPLAYED = [
  'xstate.done.actor.fetchSession → SIGN_OUT',
  'SIGN_OUT → xstate.done.actor.signOut',
  'SIGN_OUT → xstate.error.actor.signOut',
  'xstate.done.actor.fetchSession → REFETCH → xstate.error.actor.refetchSession',
  'xstate.done.actor.fetchSession → REFETCH → xstate.done.actor.refetchSession',
];
const outputOf = (step: FlowStep) => (step.event as { output?: unknown }).output;
const paths = chosenPaths(
  authSessionMachine,
  { events: authSessionEvents, serializeState: authSessionSerialize },
  (steps) =>
    REPLAYED.includes(steps.map((step) => step.event.type).join(' → ')) &&
    // The member's page carries a session; the refetch that answers one is the lost-UPDATE test's.
    steps.every(
      (step) =>
        (step.event.type !== 'xstate.done.actor.fetchSession' || outputOf(step) !== null) &&
        (step.event.type !== 'xstate.done.actor.refetchSession' || outputOf(step) === null),
    ),
);

test('the chosen auth-session paths are the ones named, and every step has an executor', () => {
  expect(paths.map((path) => path.title).sort()).toEqual([...REPLAYED].sort());
  for (const path of paths)
    for (const step of path.steps) expect(Object.keys(browserExecutors)).toContain(step.event.type);
});

for (const path of paths) {
  test(`auth session: ${path.title}`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await signUpAndSignIn(context.request);
    const page = await context.newPage();
    const types = path.steps.map((step) => step.event.type);
    const scene: Scene = {
      otherTab: types.includes('xstate.done.actor.refetchSession'),
      answers: [],
    };
    scenes.set(page, scene);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/auth/'))
        scene.answers.push(`asked ${request.method()} ${url.pathname}`);
    });
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/api/auth/'))
        scene.answers.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    });
    // The server answers an error: to the sign-out, or to the first read of the session.
    if (types.includes('xstate.error.actor.signOut'))
      await page.route('**/api/auth/signout', (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
      );
    if (types.includes('xstate.error.actor.refetchSession')) {
      let failed = false;
      await page.route('**/api/auth/session', (route) => {
        if (failed || route.request().method() !== 'GET') return route.continue();
        failed = true;
        return route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
      });
    }
    await replayInBrowser(page, path, browserExecutors, browserViews);
    await context.close();
  });
}
