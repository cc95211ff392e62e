/**
 * The death-detection flow's generated paths replayed in the app frame (ShellFrame and its
 * DeathDetectionModals): LOADED is the session becoming a member's, each actor outcome is the
 * server's answer to the call that actor made, each button event a click, and every state is
 * checked by what the member sees.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { ShellChromeProvider } from '../../src/components/shell/chrome';
import type { ShellSession } from '../../src/components/shell/shellSession';
import { ShellFrame } from '../../src/components/shell/ShellFrame';
import type { SuspectedUser } from '../../contract/deathDetection';
import {
  deathDetectionMachine,
  type DeathDetectionEvent,
  type IdentityStatusAnswer,
} from '../../src/machines/deathDetection';
import { BRIDGE_PROTOCOL, BRIDGE_VERSION } from '../../src/services/bridge/protocol';
import {
  CONFIRMATION_DATA_KEY,
  STEPS_MODAL_SHOWN_KEY,
} from '../../src/services/persistence/deathConfirmationStorage';
import { deathDetectionEvents, ME, mother, TODAY } from '../model/sessionFlowEvents';
import { holdServer, request, type HeldServer } from './replay/heldServer';
import { describeUiReplay, type Executor, type ViewAssertion } from './replay/uiReplay';
import { renderRoutes } from './shellProviders';

const DEATH_MODAL = 'ご逝去の可能性についてのお知らせ';
/** Each identity status that cannot confirm: its modal's title, what it says, its way on. */
const IDENTITY_MODALS = {
  unverifiedModal: {
    title: '見守り役の本人確認がまだです',
    says: '先にあなたの本人確認(アプリでの電子証明書の登録)が必要です。',
    action: '本人確認を始める',
  },
  progressModal: {
    title: '本人確認の手続きが途中です',
    says: 'あなたの本人確認(電子証明書の登録)が途中のままです。',
    action: '本人確認を続ける',
  },
  expiredModal: {
    title: '本人確認の有効期限が切れています',
    says: 'あなたの本人確認(電子証明書)を更新する必要があります。',
    action: '本人確認をやり直す',
  },
  revokedModal: {
    title: '本人確認の電子証明書が失効しています',
    says: 'あなたの電子証明書は失効しているため、このままではご逝去を確かめられません。',
    action: '本人確認をやり直す',
  },
} as const;
type IdentityModal = keyof typeof IDENTITY_MODALS;
const MOTHER = '山田 花子';

const SUSPECTED_READ = '/v1/fpos/death_suspected_user';
const ADMINISTERED_READ = '/v1/fpos/administered_user_with_suspected_death';
const CANCEL = '/v1/fpos/cancel_death_suspected_at';
const STATUS_READ = '/v1/identity_verification/status';

type FlowEventType =
  | DeathDetectionEvent['type']
  | `xstate.${'done' | 'error'}.actor.${'findSuspectedUser' | 'cancelSuspicion' | 'readIdentityStatus'}`;

type HostWindow = Window & { ReactNativeWebView?: { postMessage: (message: string) => void } };

interface World {
  server: HeldServer;
  user: ReturnType<typeof userEvent.setup>;
  signIn: () => Promise<void>;
  router: ReturnType<typeof renderRoutes>;
  /** What the app's web view was asked over the bridge. */
  bridgeCalls: string[];
}

let setSession: (session: ShellSession) => void = () => undefined;

/** The app's layout route with the session the test moves from loading to a member. */
function Shell() {
  const [session, set] = useState<ShellSession>({
    status: 'loading',
    user: null,
    accessToken: () => undefined,
  });
  useEffect(() => {
    setSession = set;
  }, []);
  return (
    <ShellChromeProvider>
      <ShellFrame session={session}>
        <Outlet />
      </ShellFrame>
    </ShellChromeProvider>
  );
}

const page = (name: string) => () => (
  <main>
    <h1>{name}</h1>
  </main>
);

async function mount(): Promise<World> {
  const server = holdServer();
  // The frame's unread badge polls; it is no part of this flow.
  server.always(request('GET', /^\/v1\/notification\//), { status: 200, body: { count: 0 } });
  server.always(request('POST', '/v1/device_tokens'), { status: 204, body: {} });
  const router = renderRoutes(
    [
      {
        element: <Shell />,
        children: [
          { path: '/dashboard', Component: page('dashboard') },
          { path: '/death-confirmation', Component: page('death confirmation') },
          { path: '/identity-verification', Component: page('identity verification') },
          { path: '/death-administration/:userId', Component: page('death case') },
        ],
      },
    ],
    '/dashboard',
  );
  // The client state loads before the frame's first paint.
  await screen.findByRole('link', { name: '偲ぶ トップページ' });
  const bridgeCalls: string[] = [];
  return {
    server,
    router,
    bridgeCalls,
    user: userEvent.setup(),
    // The frame may mount twice as the client state loads: asked until the member's header shows.
    signIn: () =>
      waitFor(() => {
        act(() =>
          setSession({
            status: 'authenticated',
            user: { id: ME, username: 'me', memorialPageId: 'page-me', iconUrl: null },
            accessToken: () => 'access-me',
          }),
        );
        expect(
          screen.getAllByRole('link', { name: 'マイページ', hidden: true }).length,
        ).toBeGreaterThan(0);
      }),
  };
}

/** The app's side of the bridge: it gives this device's push token when asked. */
function installAppHost(world: World) {
  (window as HostWindow).ReactNativeWebView = {
    postMessage: (message) => {
      const { id, type } = JSON.parse(message) as { id: string; type: string };
      world.bridgeCalls.push(type);
      setTimeout(() =>
        window.dispatchEvent(
          new MessageEvent('message', {
            data: JSON.stringify({
              protocol: BRIDGE_PROTOCOL,
              version: BRIDGE_VERSION,
              replyTo: id,
              ok: true,
              result: { token: 'device-1', platform: 'android' },
            }),
          }),
        ),
      );
    },
  };
}

/** The header's two reads as the server answers them for a suspicion found by the flow. */
async function answerSuspicion(server: HeldServer, suspect: SuspectedUser | null) {
  const own = suspect?.userId === ME;
  await server.answer(request('GET', SUSPECTED_READ), {
    status: 200,
    body: suspect
      ? {
          user_id: suspect.userId,
          memorial_page_id: suspect.memorialPageId,
          last_name: suspect.lastName,
          first_name: suspect.firstName,
          state: suspect.state,
        }
      : { user_id: null, memorial_page_id: null, last_name: null, first_name: null, state: null },
  });
  if (own) return;
  await server.answer(request('GET', ADMINISTERED_READ), {
    status: 200,
    body: { user_id: suspect?.userId ?? null },
  });
}

const dialog = (name: string) => screen.queryByRole('dialog', { name });
const failed = { status: 503, body: { detail: 'unavailable' } };

/** The output of an actor-outcome event of the path. */
const outputOf = <T,>(event: object) => (event as { output?: unknown }).output as T;

const executors = {
  LOADED: async (world, event) => {
    const loaded = event as Extract<DeathDetectionEvent, { type: 'LOADED' }>;
    if (loaded.lastShownDate === null) localStorage.removeItem(STEPS_MODAL_SHOWN_KEY);
    else localStorage.setItem(STEPS_MODAL_SHOWN_KEY, loaded.lastShownDate);
    if (loaded.inApp) installAppHost(world);
    await world.signIn();
    // The frame loads the flow's module after its first paint (the first time, from source).
    await waitFor(
      () => expect(world.server.asked.map((asked) => asked.path)).toContain(SUSPECTED_READ),
      { timeout: 20_000 },
    );
  },
  'xstate.done.actor.findSuspectedUser': (world, event) =>
    answerSuspicion(world.server, outputOf<SuspectedUser | null>(event)),
  'xstate.error.actor.findSuspectedUser': async ({ server }) => {
    await server.answer(request('GET', SUSPECTED_READ), failed);
  },
  'xstate.done.actor.cancelSuspicion': async ({ server }) => {
    const sent = await server.answer(request('POST', CANCEL), {
      status: 200,
      body: { state: 'alive', mailsWithdrawn: 2 },
    });
    // The member's own id, in the wire's casing.
    expect(sent.body).toEqual({ death_suspected_user_id: ME });
  },
  'xstate.error.actor.cancelSuspicion': async ({ server }) => {
    await server.answer(request('POST', CANCEL), failed);
  },
  'xstate.done.actor.readIdentityStatus': async ({ server }, event) => {
    const status = outputOf<IdentityStatusAnswer>(event);
    await server.answer(request('GET', STATUS_READ), {
      status: 200,
      body: {
        auth_status: status.authStatus,
        certificate: null,
        revoked_reason: status.revokedReason,
      },
    });
  },
  'xstate.error.actor.readIdentityStatus': async ({ server }) => {
    await server.answer(request('GET', STATUS_READ), failed);
  },
  // Outside the app the modal has no action to press: the store links stand in its place.
  START_CONFIRMATION: async ({ user }) => {
    const start = within(dialog(DEATH_MODAL)!).queryByRole('button', {
      name: 'ご逝去の確認を始める',
    });
    if (start) await user.click(start);
  },
  CLOSE: async ({ user }) => {
    await user.click(within(dialog(DEATH_MODAL)!).getByRole('button', { name: '閉じる' }));
  },
  REVERIFY: async ({ user }) => {
    const modal = IDENTITY_MODALS[openIdentityModal()];
    await user.click(within(dialog(modal.title)!).getByRole('button', { name: modal.action }));
  },
  LATER: async ({ user }) => {
    const modal = IDENTITY_MODALS[openIdentityModal()];
    await user.click(within(dialog(modal.title)!).getByRole('button', { name: 'あとで行う' }));
  },
} satisfies Record<FlowEventType, Executor<World>>;

/** The identity modal on screen: there is exactly one. */
function openIdentityModal(): IdentityModal {
  const open = (Object.keys(IDENTITY_MODALS) as IdentityModal[]).filter(
    (modal) => dialog(IDENTITY_MODALS[modal].title) !== null,
  );
  expect(open).toHaveLength(1);
  return open[0]!;
}

/** No modal of the flow is open. */
const noModal = () => {
  expect(dialog(DEATH_MODAL)).toBeNull();
  for (const { title } of Object.values(IDENTITY_MODALS)) expect(dialog(title)).toBeNull();
};

/** An identity status's own modal: its title, its words, its way on, and no close. */
const identityModalView = (which: IdentityModal) => async () => {
  const { title, says, action } = IDENTITY_MODALS[which];
  const modal = await screen.findByRole('dialog', { name: title });
  expect(modal.textContent).toContain(`${MOTHER} さんについて、ご逝去の可能性があるとのお知らせ`);
  expect(modal.textContent).toContain(says);
  expect(within(modal).getByRole('button', { name: action })).toBeTruthy();
  expect(within(modal).getByRole('button', { name: 'あとで行う' })).toBeTruthy();
  // It closes only through its two actions.
  expect(within(modal).queryByRole('button', { name: '閉じる' })).toBeNull();
  expect(screen.getAllByRole('dialog')).toHaveLength(1);
  expect(localStorage.getItem(STEPS_MODAL_SHOWN_KEY)).toBe(TODAY);
};

/** The member's own case, as the banner above every page tells it. */
const ownBanner = () => screen.queryByText(/あなたについて、ご逝去|あなたのご逝去を確認/);
const ownCaseText = async (text: RegExp) =>
  waitFor(() => expect(screen.getByText(text)).toBeTruthy());

const waiting = (server: HeldServer, method: string, path: string) =>
  waitFor(() =>
    expect(server.pending.map((held) => `${held.method} ${held.path}`)).toContain(
      `${method} ${path}`,
    ),
  );

const views: Record<string, ViewAssertion<World>> = {
  waitingForLoad: ({ server }) => {
    noModal();
    expect(server.asked.filter((asked) => asked.path.startsWith('/v1/fpos'))).toEqual([]);
  },
  checking: async ({ server }) => {
    noModal();
    await waitFor(() =>
      expect(
        server.pending.some((held) => [SUSPECTED_READ, ADMINISTERED_READ].includes(held.path)),
      ).toBe(true),
    );
  },
  cancelling: async ({ server }) => {
    noModal();
    await ownCaseText(/取り消しています…/);
    await waiting(server, 'POST', CANCEL);
  },
  readingIdentityStatus: async ({ server }) => {
    noModal();
    await waiting(server, 'GET', STATUS_READ);
  },
  deathModal: async ({ bridgeCalls }, { path }) => {
    const modal = await screen.findByRole('dialog', { name: DEATH_MODAL });
    expect(modal.textContent).toContain(`${MOTHER} さんについて`);
    const inApp = (path[0] as Extract<DeathDetectionEvent, { type: 'LOADED' }>).inApp;
    // The action only inside the app; the store links elsewhere.
    expect(within(modal).queryByRole('button', { name: 'ご逝去の確認を始める' }) !== null).toBe(
      inApp,
    );
    expect(modal.textContent?.includes('アプリをダウンロードしてください')).toBe(!inApp);
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(localStorage.getItem(STEPS_MODAL_SHOWN_KEY)).toBe(TODAY);
    if (inApp) await waitFor(() => expect(bridgeCalls).toContain('registerDeviceToken'));
  },
  unverifiedModal: identityModalView('unverifiedModal'),
  progressModal: identityModalView('progressModal'),
  expiredModal: identityModalView('expiredModal'),
  revokedModal: identityModalView('revokedModal'),
  done: async ({ router, server }, { event }) => {
    const where = () => router.state.location.pathname;
    switch (event!.type) {
      case 'START_CONFIRMATION':
        await screen.findByRole('heading', { name: 'death confirmation' });
        expect(where()).toBe('/death-confirmation');
        // The confirmation starts with the suspected member's data.
        expect(JSON.parse(localStorage.getItem(CONFIRMATION_DATA_KEY)!)).toMatchObject({
          subject: { userId: mother.userId, name: MOTHER, memorialPageId: mother.memorialPageId },
          step: 'who',
        });
        break;
      case 'REVERIFY':
        await screen.findByRole('heading', { name: 'identity verification' });
        expect(where()).toBe('/identity-verification');
        break;
      case 'xstate.done.actor.cancelSuspicion':
        await ownCaseText(/取り消しました。何も公開されません。/);
        await ownCaseText(
          /^この件について、まだ送られていなかったメールは送らずに取りやめました\(送らずに取りやめたメール:2 通\)。$/,
        );
        break;
      case 'xstate.error.actor.cancelSuspicion':
        await ownCaseText(/自動で取り消すことができませんでした/);
        expect(screen.getByRole('button', { name: '私は元気です(取り消す)' })).toBeTruthy();
        break;
      default:
        expect(where()).toBe('/dashboard');
        expect(ownBanner()).toBeNull();
    }
    noModal();
    // Nothing more is asked of the server.
    expect(server.pending.filter((held) => held.path.startsWith('/v1/fpos'))).toEqual([]);
    expect(server.pending.filter((held) => held.path === STATUS_READ)).toEqual([]);
  },
};

beforeEach(() => {
  // Noon in Japan on the model's day: the frame's date is the LOADED event's `today`.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(`${TODAY}T03:00:00.000Z`));
});

afterEach(() => {
  vi.useRealTimers();
  delete (window as HostWindow).ReactNativeWebView;
});

describeUiReplay('deathDetection', {
  machine: deathDetectionMachine,
  events: deathDetectionEvents,
  mount,
  executors,
  views,
  unmount: ({ server }) => server.restore(),
});
