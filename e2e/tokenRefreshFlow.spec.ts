/**
 * The token refresh's generated paths replayed in Chromium against the real server: the
 * access token expires on the server's test clock, the member opens the notifications, the
 * list call's 401 starts the refresh. Replayed: the refresh that succeeds, the refresh the
 * server refuses (the session was signed out elsewhere), the refresh that fails (503 on the
 * network), and the cookie that cannot be read first. Another tab's rotation is replayed in
 * the UI replay (test/unit/tokenRefreshFlow.test.tsx): here the other tab's announcement
 * makes this one read the cookie before its call fails, so no refresh starts.
 */
import { expect, test } from './support/fixtures';
import type { BrowserContext, Page, Request } from '@playwright/test';
import { tokenRefreshMachine } from '../src/machines/tokenRefresh';
import {
  storedElsewhere,
  tokenRefreshEvents,
  tokenRefreshInput,
} from '../test/model/sessionFlowEvents';
import {
  chosenPaths,
  replayInBrowser,
  type BrowserExecutor,
  type BrowserView,
} from './support/flowReplay';
import { signUpAndSignIn } from './support/members';
import { VIEWPORTS } from './support/screens';

/** Past the access token's 15 minutes on the server's clock. */
const EXPIRED_MS = 16 * 60_000;

type EventType = `xstate.${'done' | 'error'}.actor.${'readStoredTokens' | 'requestTokens'}`;

const statusOf = (event: object) => {
  const error = (event as { error: { status?: number; response?: { status: number } } }).error;
  return error.status ?? error.response!.status;
};

interface Traffic {
  /** `METHOD /path status` of the page's answers, in order. */
  answers: string[];
}
const traffic = new WeakMap<Page, Traffic>();
const answered = (page: Page, entry: RegExp) =>
  expect.poll(() => traffic.get(page)!.answers.some((seen) => entry.test(seen))).toBe(true);

// The server answers by itself; an outcome waits for nothing more than its view.
const serverAnswers: BrowserExecutor = async () => undefined;
const executors = {
  'xstate.done.actor.readStoredTokens': serverAnswers,
  'xstate.error.actor.readStoredTokens': serverAnswers,
  'xstate.done.actor.requestTokens': serverAnswers,
  'xstate.error.actor.requestTokens': serverAnswers,
} satisfies Record<EventType, BrowserExecutor>;

const LIST_ERROR = '読み込めませんでした。時間をおいてもう一度お試しください。';

const views: Record<string, BrowserView> = {
  checkingStored: async (page) => {
    // The list or the header's unread count, whichever the server refuses first.
    await answered(page, /^GET \/v1\/notification\/user_notifications\S* 401$/);
  },
  requesting: async (page) => {
    await answered(page, /^GET \/api\/auth\/session \d+$/);
  },
  refreshed: async (page) => {
    // The list the member opened, loaded with the new token; still signed in.
    await answered(page, /^POST \/api\/auth\/refresh 200$/);
    await answered(page, /^GET \/v1\/notification\/user_notifications 200$/);
    await expect(page).toHaveURL(/\/notification\/list$/);
    await expect(page.getByText('お知らせはまだありません。')).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL(/\/notification\/list$/);
    await expect(page.getByText('お知らせはまだありません。')).toBeVisible();
  },
  loggedOut: async (page) => {
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole('button', { name: 'ログインする' })).toBeVisible();
  },
  failed: async (page) => {
    // The refresh could not be made: the member stays signed in, the list says it failed.
    await expect(page.getByRole('alert').filter({ hasText: LIST_ERROR })).toBeVisible();
    await expect(page).toHaveURL(/\/notification\/list$/);
  },
};

const paths = chosenPaths(
  tokenRefreshMachine,
  { input: tokenRefreshInput, events: tokenRefreshEvents },
  (steps) =>
    // Not another tab's rotation (see above), and one refusal status: the server's is 401.
    !steps.some(
      (step) =>
        (step.event as { output?: unknown }).output === storedElsewhere ||
        (step.event.type === 'xstate.error.actor.requestTokens' && statusOf(step.event) === 403),
    ),
);

test('the chosen paths reach every final state and take every error branch', () => {
  const finals = paths.flatMap((path) => path.steps.at(-1)!.states);
  for (const final of ['refreshed', 'loggedOut', 'failed']) expect(finals).toContain(final);
  expect(
    paths.some((path) => path.steps[0]!.event.type === 'xstate.error.actor.readStoredTokens'),
  ).toBe(true);
});

async function advanceServerClock(context: BrowserContext, ms: number) {
  const moved = await context.request.post('/v1/test/clock', { data: { advance_ms: ms } });
  expect(moved.status(), await moved.text()).toBe(200);
}

for (const path of paths) {
  const refused = path.steps.find((step) => step.event.type === 'xstate.error.actor.requestTokens');
  const suffix = refused ? ` (${statusOf(refused.event)})` : '';
  test(`token refresh: ${path.title}${suffix}`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await signUpAndSignIn(context.request);
    const page = await context.newPage();
    const seen: Traffic = { answers: [] };
    traffic.set(page, seen);
    const open = new Set<Request>();
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/')) open.add(request);
    });
    page.on('requestfailed', (request) => open.delete(request));
    page.on('requestfinished', (request) => open.delete(request));
    page.on('response', (response) => {
      const url = new URL(response.url());
      seen.answers.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    });
    await page.goto('/mypage');
    await expect(page.getByRole('link', { name: 'マイページ' }).first()).toBeVisible();
    // The page's own start-up reads are answered before the token expires: one still going
    // out after the clock moved would be refused first and refresh the token before the
    // member's gesture, whose call then carries the new token. The header's death-detection
    // read comes last (it waits for another); the others went out with the first render.
    await answered(page, /^GET \/v1\/fpos\/administered_user_with_suspected_death 200$/);
    await expect.poll(() => open.size).toBe(0);

    const events = path.steps.map((step) => step.event);
    // The cookie cannot be read once: the refresh's first look fails.
    if (events.some((event) => event.type === 'xstate.error.actor.readStoredTokens')) {
      let failedOnce = false;
      await page.route('**/api/auth/session', (route) => {
        if (failedOnce || route.request().method() !== 'GET') return route.continue();
        failedOnce = true;
        return route.fulfill({ status: 500, body: '{}' });
      });
    }
    const refusal = events.find((event) => event.type === 'xstate.error.actor.requestTokens');
    if (refusal && statusOf(refusal) >= 500)
      await page.route('**/api/auth/refresh', (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
      );
    if (refusal && statusOf(refusal) < 500) {
      // Signed out on another device with the same cookie: the refresh family is revoked.
      const other = await browser.newContext({ storageState: await context.storageState() });
      const { csrfToken } = (await (await other.request.get('/api/auth/csrf')).json()) as {
        csrfToken: string;
      };
      const out = await other.request.post('/api/auth/signout', {
        form: { csrfToken, callbackUrl: '/', json: 'true' },
      });
      expect(out.status(), await out.text()).toBe(200);
      await other.close();
    }

    await advanceServerClock(context, EXPIRED_MS);
    // The member opens the notifications: the list call is refused as expired.
    await page.getByRole('link', { name: /^お知らせ、未読/ }).click();
    await replayInBrowser(page, path, executors, views);
    await context.close();
  });
}
