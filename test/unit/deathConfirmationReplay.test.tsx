/**
 * The death confirmation's generated paths replayed on its screen in the app's web view: a
 * restore is what the device kept (deathConfirmationData, deathConfirmationCompletionData),
 * each button event a click, each sign request and submit the server's answer, each base sign
 * the app's reply over the bridge; every state is checked by what the 見守り役 sees.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import {
  deathConfirmationMachine,
  type DeathConfirmationEvent,
  type DeathConfirmationOutcome,
  type RestoredData,
} from '../../src/machines/deathConfirmation';
import { Component as DeathConfirmationScreen } from '../../src/screens/deathConfirmation/DeathConfirmationScreen';
import { BRIDGE_PROTOCOL, BRIDGE_VERSION } from '../../src/services/bridge/protocol';
import {
  CONFIRMATION_COMPLETION_KEY,
  CONFIRMATION_DATA_KEY,
} from '../../src/services/persistence/deathConfirmationStorage';
import { deathConfirmationEvents, subject, TODAY } from '../model/deathConfirmationEvents';
import { holdServer, request, type HeldServer } from './replay/heldServer';
import { describeUiReplay, type Executor, type ViewAssertion } from './replay/uiReplay';
import { renderRoutes } from './shellProviders';

const SIGN_REQUEST = '/v1/fpos/death_confirmation/sign_request';
const CONFIRM = '/v1/fpos/death_confirmation';
const WHO = '山田 花子 さんのご逝去を確かめます。お名前にお間違いがないか、ご確認ください。';
const LEAVE_HINT =
  '入力した内容は残ります。お知らせや見守りの状況の画面から、いつでも続きを行えます。';

type FlowEventType =
  | DeathConfirmationEvent['type']
  | `xstate.${'done' | 'error'}.actor.${'restore' | 'requestSign' | 'baseSign' | 'submit'}`;

type HostWindow = Window & { ReactNativeWebView?: { postMessage: (message: string) => void } };

interface World {
  server: HeldServer;
  user: ReturnType<typeof userEvent.setup>;
  router: ReturnType<typeof renderRoutes> | null;
  /** The app's bridge calls not answered yet. */
  bridgeCalls: { id: string; type: string }[];
}

const page = (name: string) => () => (
  <main>
    <h1>{name}</h1>
  </main>
);

/** The app's side of the bridge: it holds each call until the path answers it. */
function installAppHost(world: World) {
  (window as HostWindow).ReactNativeWebView = {
    postMessage: (message) => {
      const { id, type } = JSON.parse(message) as { id: string; type: string };
      world.bridgeCalls.push({ id, type });
    },
  };
}

function replyOverBridge(world: World, reply: { ok: true; result: unknown } | { ok: false }) {
  const call = world.bridgeCalls.shift()!;
  expect(call.type).toBe('startBaseSign');
  window.dispatchEvent(
    new MessageEvent('message', {
      data: JSON.stringify({
        protocol: BRIDGE_PROTOCOL,
        version: BRIDGE_VERSION,
        replyTo: call.id,
        ...(reply.ok ? reply : { ok: false, error: { code: 'CANCELLED' } }),
      }),
    }),
  );
}

function mount(): World {
  localStorage.clear();
  const world: World = {
    server: holdServer(),
    user: userEvent.setup(),
    router: null,
    bridgeCalls: [],
  };
  installAppHost(world);
  return world;
}

/** The screen opens with what the device kept. */
function open(world: World, kept: RestoredData | null) {
  if (kept?.progress) localStorage.setItem(CONFIRMATION_DATA_KEY, JSON.stringify(kept.progress));
  if (kept?.completion)
    localStorage.setItem(CONFIRMATION_COMPLETION_KEY, JSON.stringify(kept.completion));
  world.router = renderRoutes(
    [
      { path: '/death-confirmation', Component: DeathConfirmationScreen },
      { path: '/dashboard', Component: page('dashboard') },
      { path: '/death-administration/:userId', Component: page('death case') },
    ],
    '/death-confirmation',
  );
}

const click = async (world: World, name: string) =>
  world.user.click(await screen.findByRole('button', { name }));

const outputOf = <T,>(event: object) => (event as { output?: unknown }).output as T;

const executors = {
  'xstate.done.actor.restore': async (world, event) => {
    open(world, outputOf<RestoredData>(event));
  },
  // The device's storage refuses to be read: the screen finds nothing kept.
  'xstate.error.actor.restore': async (world) => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('storage refused');
    });
    open(world, null);
  },
  NEXT: (world) => click(world, '次へ'),
  BACK: (world) => click(world, '戻る'),
  LEAVE: (world) => click(world, 'あとで続ける'),
  SET_DATE: async (_world, event) => {
    const field = await screen.findByLabelText<HTMLInputElement>('ご逝去日');
    const value = (event as unknown as { value: string }).value;
    // The same date typed again: the member clears the field first, as a browser needs.
    if (field.value === value) fireEvent.change(field, { target: { value: '' } });
    fireEvent.change(field, { target: { value } });
  },
  SET_RELATIONSHIP: async (world, event) => {
    await world.user.selectOptions(
      await screen.findByLabelText('山田 花子 さんとのご関係'),
      (event as unknown as { value: string }).value,
    );
  },
  SIGN: (world) => click(world, '電子証明書で署名して送信する'),
  'xstate.done.actor.requestSign': async ({ server }, event) => {
    const sent = await server.answer(request('POST', SIGN_REQUEST), {
      status: 201,
      body: { ...outputOf<object>(event), expiresAt: '2026-11-22T03:10:00.000Z' },
    });
    expect(sent.body).toEqual({
      death_suspected_user_id: subject.userId,
      date_of_death: '2026-11-20',
      relationship: 'family',
    });
  },
  'xstate.error.actor.requestSign': async ({ server }) => {
    await server.answer(request('POST', SIGN_REQUEST), {
      status: 403,
      body: { detail: 'certificate required', code: 'certificate_required' },
    });
  },
  'xstate.done.actor.baseSign': async (world, event) => {
    await waitFor(() => expect(world.bridgeCalls).toHaveLength(1));
    replyOverBridge(world, { ok: true, result: outputOf(event) });
  },
  'xstate.error.actor.baseSign': async (world) => {
    await waitFor(() => expect(world.bridgeCalls).toHaveLength(1));
    replyOverBridge(world, { ok: false });
  },
  'xstate.done.actor.submit': async ({ server }, event) => {
    const outcome = outputOf<DeathConfirmationOutcome>(event);
    await server.answer(request('POST', CONFIRM), {
      status: 201,
      body: {
        userId: subject.userId,
        lastName: '山田',
        firstName: '花子',
        memorialPageId: subject.memorialPageId,
        state: outcome.state,
        rule: 'two',
        confirmationsNeeded: outcome.confirmationsNeeded,
        suspectedAt: '2026-11-21T00:00:00.000Z',
        graceEndsAt: outcome.graceEndsAt,
        releasedAt: null,
        dateOfDeath: null,
        signals: [],
        confirmations: [
          {
            administratorUserId: 'user-me',
            lastName: '山田',
            firstName: '一郎',
            relationship: 'family',
            dateOfDeath: '2026-11-20',
            createdAt: '2026-11-22T03:00:00.000Z',
          },
        ],
        lastCancelled: null,
        canConfirm: false,
      },
    });
  },
  'xstate.error.actor.submit': async ({ server }) => {
    await server.answer(request('POST', CONFIRM), { status: 503, body: { detail: 'down' } });
  },
  FINISH: (world) => click(world, '閉じる'),
} satisfies Record<FlowEventType, Executor<World>>;

/** The step's way out is there, with what it promises. */
const canLeave = async () => {
  expect(await screen.findByRole('button', { name: 'あとで続ける' })).toBeTruthy();
  expect(screen.getByText(LEAVE_HINT)).toBeTruthy();
};

const heading = (name: string) => screen.findByRole('heading', { name });

const views: Record<string, ViewAssertion<World>> = {
  restoring: () => {
    // Nothing opened yet: the screen mounts with what the path says the device kept.
    expect(screen.queryByRole('heading')).toBeNull();
  },
  missing: async () => {
    expect(
      await screen.findByText(
        '確認する方の情報がありません。お知らせの画面からもう一度お進みください。',
      ),
    ).toBeTruthy();
  },
  who: async () => {
    await heading('亡くなられた方の確認');
    expect(screen.getByText(WHO)).toBeTruthy();
    expect(screen.getByText('手順 1 / 4')).toBeTruthy();
    await canLeave();
  },
  date: async (_world, { event, from }) => {
    await heading('ご逝去日');
    expect(screen.getByText('手順 2 / 4')).toBeTruthy();
    // NEXT that stays: the date is missing or after today in Japan, and the step says so.
    const refused = event?.type === 'NEXT' && from[0] === 'date';
    expect(screen.queryAllByText(/ご逝去日を正しく入力してください/).length > 0).toBe(refused);
    await canLeave();
  },
  relationship: async () => {
    await heading('ご関係');
    expect(screen.getByText('手順 3 / 4')).toBeTruthy();
    await canLeave();
  },
  review: async (_world, { event }) => {
    await heading('内容の確認と署名');
    expect(screen.getByText('山田 花子')).toBeTruthy();
    const failures: Record<string, string> = {
      'xstate.error.actor.requestSign':
        'あなたの本人確認(電子証明書)が有効ではないため、ご逝去の確認を行えません。先に本人確認を行ってください。',
      'xstate.error.actor.baseSign': 'アプリでの署名ができませんでした。もう一度お試しください。',
      'xstate.error.actor.submit':
        '送信できませんでした。時間をおいてもう一度お試しください。入力した内容はそのまま残っています。',
    };
    const failure = failures[event?.type ?? ''];
    if (failure) expect((await screen.findByRole('alert')).textContent).toBe(failure);
    else expect(screen.queryByRole('alert')).toBeNull();
    await canLeave();
  },
  'signing.requesting': async ({ server }) => {
    await waitFor(() => expect(server.pending.map((held) => held.path)).toContain(SIGN_REQUEST));
    expect(screen.getByRole('button', { name: '電子証明書で署名して送信する' })).toHaveProperty(
      'disabled',
      true,
    );
  },
  'signing.signingInApp': async (world) => {
    await waitFor(() =>
      expect(world.bridgeCalls.map((call) => call.type)).toEqual(['startBaseSign']),
    );
    expect(
      screen.getByText('アプリで署名しています。アプリの案内に沿ってお進みください。'),
    ).toBeTruthy();
  },
  'signing.submitting': async ({ server }) => {
    await waitFor(() => expect(server.pending.map((held) => held.path)).toContain(CONFIRM));
  },
  completed: async () => {
    await heading('ご逝去の確認を受け付けました');
    expect(
      screen.getByText(
        '山田 花子 さんのご逝去の確認を受け付けました。確定には見守り役 2 名の確認が必要です(現在 1 名)。もう一人の見守り役の確認をお待ちください。',
      ),
    ).toBeTruthy();
    expect(localStorage.getItem(CONFIRMATION_COMPLETION_KEY)).not.toBeNull();
  },
  finished: async ({ router }) => {
    await heading('dashboard');
    expect(router!.state.location.pathname).toBe('/dashboard');
    expect(localStorage.getItem(CONFIRMATION_DATA_KEY)).toBeNull();
    expect(localStorage.getItem(CONFIRMATION_COMPLETION_KEY)).toBeNull();
  },
  left: async ({ router }, { from }) => {
    await heading('death case');
    expect(router!.state.location.pathname).toBe(`/death-administration/${subject.userId}`);
    // What was entered is kept, at the step it was left from.
    const kept = JSON.parse(localStorage.getItem(CONFIRMATION_DATA_KEY)!) as { step: string };
    expect(kept.step).toBe(from[0]);
  },
};

beforeEach(() => {
  // Noon in Japan on the model's day: the screen's today is the restore's `today`.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(`${TODAY}T03:00:00.000Z`));
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  delete (window as HostWindow).ReactNativeWebView;
});

describeUiReplay('deathConfirmation', {
  machine: deathConfirmationMachine,
  events: deathConfirmationEvents,
  mount,
  executors,
  views,
  unmount: ({ server }) => server.restore(),
});
