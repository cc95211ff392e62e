/**
 * The invitation chart's generated paths replayed in the browser against the real server: a
 * signed-in member accepts an admin invitation and a viewer's one, an invitation past its
 * week is invalid (the server's test clock), and a signed-out visitor's pet-page admin link
 * goes on to a registration in pet mode. The calls' outcomes are the real server's answers:
 * their executors only wait for the screen to show the state that follows.
 */
import { expect, test, workerServer } from './support/fixtures';
import type { Page } from '@playwright/test';
import { invitationMachine, type InvitationEvent } from '../src/machines/invitation';
import { invitationEvents } from '../test/model/flowEvents';
import {
  chosenPaths,
  replayInBrowser,
  type BrowserExecutor,
  type BrowserView,
  type FlowPath,
} from './support/flowReplay';
import { sharedInvitation, type SharedInvitation } from './support/invitations';
import { signUpAndSignIn } from './support/members';
import { VIEWPORTS } from './support/screens';

type EventType = InvitationEvent['type'];

/** The invitation of the path being replayed, made on the real server before it starts. */
let invitation: SharedInvitation;

const invalidAlert = (page: Page) =>
  page.locator('#content').getByRole('alert').filter({ hasText: '招待リンクが無効か' });
const accepted = (page: Page) =>
  page.getByRole('status').filter({ hasText: '招待した方とつながり' });
const serverAnswers: BrowserExecutor = async () => undefined;
/** A choice of the invitation, or nothing to press once the screen has moved on. */
const pressIfShown =
  (name: string): BrowserExecutor =>
  async (page) => {
    const button = page.getByRole('button', { name });
    if (await button.isVisible()) await button.click();
  };

const executors = {
  // The link opened in the address bar: the model's LINK, with its setAdmin and pet.
  LINK: async (page) => {
    await page.goto(invitation.link);
  },
  // The session is known: signed in before the link was opened (the chart hears the member
  // before the link), or the chart learning the member again, which shows nothing new.
  LOGGED_IN: serverAnswers,
  REGISTER: pressIfShown('新規登録する'),
  SIGN_IN: pressIfShown('ログインする'),
} satisfies Record<EventType, BrowserExecutor>;

/** On the invitation, with no verdict yet or the way to it still open. */
const underWay: BrowserView = async (page) => {
  await expect(page).toHaveURL(/\/memory\/invitation/);
  await expect(invalidAlert(page)).toHaveCount(0);
};

const views: Record<string, BrowserView> = {
  absent: async (page) => {
    await expect(invalidAlert(page)).toHaveCount(0);
  },
  // The server's verdict may already be on screen: an expired link's answer comes back
  // before the page can be looked at, so only where the member is can be checked here.
  validating: async (page) => {
    await expect(page).toHaveURL(/\/memory\/invitation/);
  },
  awaitingLogin: async (page) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('招待');
    await expect(page.getByRole('button', { name: '新規登録する' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'ログインする' })).toBeVisible();
  },
  connecting: underWay,
  resolvingPage: underWay,
  addingAdmin: underWay,
  expiring: underWay,
  accepted: async (page, step, path) => {
    const asAdmin = path.some(
      (done) =>
        done.event.type === 'LINK' && (done.event as unknown as { setAdmin: boolean }).setAdmin,
    );
    await expect(accepted(page)).toHaveText(
      asAdmin
        ? '招待した方とつながり、このページの管理者になりました。'
        : '招待した方とつながりました。',
    );
  },
  handedToPetAdmin: async (page) => {
    // Registration in pet mode, with the pet page pending in this browser.
    await expect(page).toHaveURL(/\/register-top\?pet=true$/);
    await expect(
      page.getByText(
        'ペットのメモリアルページを管理するために、まずあなたのアカウントを作成します。',
      ),
    ).toBeVisible();
    const kept = await page.evaluate(() => localStorage.getItem('persist:shinobu'));
    expect(JSON.parse(kept ?? '{}')).toMatchObject({
      memorialAdmin: {
        targetMemorialPageEncodedId: new URLSearchParams(invitation.link.split('?')[1]).get(
          'shareToken',
        ),
        completed: false,
      },
    });
  },
  invalid: async (page) => {
    await expect(invalidAlert(page)).toBeVisible();
  },
};

const allExecutors: Record<string, BrowserExecutor> = new Proxy(executors, {
  // Every outcome of a call is the server's answer: nothing to do but look.
  get: (target, type: string) => target[type as keyof typeof target] ?? serverAnswers,
});

const last = (path: FlowPath) => path.steps.at(-1)!;
const linkOf = (path: FlowPath) =>
  path.steps.find((step) => step.event.type === 'LINK')?.event as
    { setAdmin: boolean; pet: boolean } | undefined;
const onlyOneLink = (path: FlowPath) =>
  path.steps.filter((step) => step.event.type === 'LINK').length === 1;

/** Signed in: the chart starts with the member known. */
const signedIn = chosenPaths(
  invitationMachine,
  { input: { userId: 'invitee' }, events: invitationEvents },
  () => true,
).filter((path) => onlyOneLink(path) && path.steps[0]?.event.type === 'LINK');
const memberPaths = [
  signedIn.find(
    (path) =>
      last(path).states.includes('accepted') && linkOf(path)?.setAdmin && !linkOf(path)?.pet,
  ),
  signedIn.find(
    (path) => last(path).states.includes('accepted') && linkOf(path)?.setAdmin === false,
  ),
  // The server answers an expired link as not valid.
  signedIn.find(
    (path) =>
      path.steps.length === 3 &&
      path.steps[1]!.event.type === 'xstate.done.actor.validateShareToken' &&
      path.steps[1]!.states.includes('invalid') &&
      last(path).event.type === 'LOGGED_IN',
  ),
].filter((path): path is FlowPath => path !== undefined);

/** Signed out: the pet page's admin link goes on to a registration in pet mode. */
const signedOutPaths = chosenPaths(
  invitationMachine,
  { input: { userId: null }, events: invitationEvents },
  (steps) =>
    steps.length === 4 &&
    steps[2]!.event.type === 'REGISTER' &&
    steps[2]!.states.includes('handedToPetAdmin') &&
    steps[3]!.event.type === 'REGISTER',
).filter(onlyOneLink);

test('the chosen paths: admin, viewer, expired, and the pet page link', () => {
  expect(memberPaths.map((path) => path.title)).toHaveLength(3);
  expect(signedOutPaths.map((path) => path.title)).toHaveLength(1);
});

const SHARE_TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

for (const path of memberPaths) {
  const expired = last(path).states.includes('invalid');
  test(`invitation, signed in: ${path.title}${expired ? ' (a week later)' : ''}`, async ({
    browser,
    playwright,
  }) => {
    const api = await playwright.request.newContext({ baseURL: workerServer().baseURL });
    invitation = await sharedInvitation(api, { setAdmin: linkOf(path)!.setAdmin });
    if (expired) {
      // The server's clock passes the link's week.
      const moved = await api.post('/v1/test/clock', {
        data: { advance_ms: SHARE_TOKEN_LIFETIME_MS + 60_000 },
      });
      expect(moved.status()).toBe(200);
    }
    await api.dispose();
    const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
    await signUpAndSignIn(context.request);
    const page = await context.newPage();
    await replayInBrowser(page, path, allExecutors, views);
    if (!expired) {
      // The page it leads to is the inviter's; as admin the invitee may now edit it.
      await page.getByRole('link', { name: 'メモリアルページを見る' }).click();
      await expect(page).toHaveURL(new RegExp(`/memory/${invitation.memorialPageId}$`));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: 'プロフィールを編集する' })).toHaveCount(
        linkOf(path)!.setAdmin ? 1 : 0,
      );
      // The link is used up.
      await page.goto(invitation.link);
      await expect(invalidAlert(page)).toBeVisible();
    }
    await context.close();
  });
}

for (const path of signedOutPaths) {
  test(`invitation, signed out: ${path.title}`, async ({ browser, playwright }) => {
    const api = await playwright.request.newContext({ baseURL: workerServer().baseURL });
    invitation = await sharedInvitation(api, { setAdmin: true, pet: true });
    await api.dispose();
    const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    await replayInBrowser(page, path, allExecutors, views);
    await context.close();
  });
}
