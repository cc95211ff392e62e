/**
 * The petAdmin paths replayed in the UI: the app's real client state starts the page's
 * pet-admin chart; SET is a signed-out visitor choosing to register from a pet page's admin
 * link on the invitation screen, COMPLETE a pet-mode registration on the registration screen,
 * RESTORED a page load with the setting in storage, the expiry the page's clock moving on.
 * Each state is checked by the pet page the registration would take and what the browser keeps.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import {
  emptyPetAdminSetting,
  petAdminMachine,
  type PetAdminEvent,
  type PetAdminSetting,
} from '../../src/machines/petAdmin';
import { usePetAdminSetting } from '../../src/services/clientState/usePetAdminSetting';
import { PERSIST_ROOT_KEY } from '../../src/services/persistence/clientStorage';
import { Component as RegisterTopScreen } from '../../src/screens/registerTop/RegisterTopScreen';
import { http } from '../../src/services/http';
import { answerApi } from './apiAnswers';
import { Component as InvitationScreen } from '../../src/screens/memory/InvitationScreen';
import { SessionProvider } from '../../src/services/session/SessionProvider';
import { AppProviders } from './shellProviders';
import { describeUiReplay, type Executor, type ViewAssertion } from './replay/uiReplay';

const T0 = Date.parse('2026-11-22T00:00:00Z');
const HOUR = 60 * 60 * 1000;
/** The spec's lifetime of a pet-admin link, written here rather than taken from the code. */
const TWENTY_FOUR_HOURS = 24 * HOUR;
const PET_PAGE = 'pet-link';
const stored = (fields: Partial<PetAdminSetting>): PetAdminSetting => ({
  targetMemorialPageEncodedId: PET_PAGE,
  expiresAt: T0 + 2 * HOUR,
  completed: false,
  ...fields,
});

/** The page the member is on: what the registration would take as the pending pet page. */
function PetAdminHost() {
  const { pendingPetPageId } = usePetAdminSetting();
  return <p>pending: {pendingPetPageId ?? 'none'}</p>;
}

interface World {
  user: ReturnType<typeof userEvent.setup>;
  /** The bodies of the registrations sent to the server. */
  registrations: unknown[];
  /** Date.now() just before the latest SET gesture. */
  setFrom: number;
}

/** Loads the page: the client state restores the persisted slices, then the pet-admin chart. */
let router: ReturnType<typeof createMemoryRouter>;
async function loadPage(): Promise<void> {
  router = createMemoryRouter([
    { path: '/', element: <PetAdminHost /> },
    { path: '/memory/invitation', element: <InvitationScreen /> },
    { path: '/register-top', element: <RegisterTopScreen /> },
  ]);
  render(
    <AppProviders>
      <SessionProvider navigate={(to) => void router.navigate(to)}>
        <RouterProvider router={router} />
      </SessionProvider>
    </AppProviders>,
  );
  await screen.findByText(/^pending: /);
}

/** The session layer of a signed-out visitor. */
function signedOut() {
  vi.stubGlobal('fetch', async (input: string) =>
    input.endsWith('/api/auth/session')
      ? new Response('null', { headers: { 'content-type': 'application/json' } })
      : new Response('{}', { status: 404 }),
  );
}

/** The server takes every registration (202) and the test keeps what was sent. */
function answerRegistrations(): unknown[] {
  const registrations: unknown[] = [];
  answerApi({
    '/v1/user': { detail: 'accepted' },
    '/v1/share_token/validate_share_token': { is_valid: true },
  });
  const answer = http.defaults.adapter as (config: { url?: string; data?: unknown }) => unknown;
  http.defaults.adapter = ((config: { url?: string; data?: string }) => {
    if (config.url === '/v1/user') registrations.push(JSON.parse(config.data ?? 'null'));
    return answer(config);
  }) as never;
  return registrations;
}

/** Registers in pet mode on the real registration screen, then comes back to the top. */
async function registerInPetMode({ user }: World) {
  await act(() => router.navigate('/register-top?pet=true'));
  await screen.findByRole('heading', { name: '新規登録' });
  await user.type(screen.getByLabelText('ニックネーム'), 'jiro');
  await user.type(screen.getByLabelText('メールアドレス'), 'jiro@example.com');
  await user.type(screen.getByLabelText('パスワード', { exact: true }), 'a quiet evening');
  await user.type(screen.getByLabelText('姓', { exact: true }), '山田');
  await user.type(screen.getByLabelText('名', { exact: true }), '次郎');
  await user.type(screen.getByLabelText('せい（ひらがな）'), 'やまだ');
  await user.type(screen.getByLabelText('めい（ひらがな）'), 'じろう');
  await user.selectOptions(screen.getByLabelText('お住まいの都道府県'), '東京都');
  await user.type(screen.getByLabelText('生年月日'), '1960-06-06');
  await user.click(screen.getByRole('radio', { name: '男性' }));
  await user.click(screen.getByRole('button', { name: '入力内容を確認する' }));
  await user.click(await screen.findByRole('button', { name: '登録する' }));
  await screen.findByRole('heading', { name: 'メールをお送りしました' });
  await act(() => router.navigate('/'));
  await screen.findByText(/^pending: /);
}

/** What this browser keeps of the setting (the persisted memorialAdmin slice). */
function kept(): PetAdminSetting {
  const raw = localStorage.getItem(PERSIST_ROOT_KEY);
  const parsed = raw ? (JSON.parse(raw) as { memorialAdmin?: PetAdminSetting }) : {};
  return parsed.memorialAdmin ?? emptyPetAdminSetting;
}

const pending = () => screen.getByText(/^pending: /).textContent;

/** Leaves the page and comes back to it, at `at` with `setting` in storage if given. */
async function reload(restore?: { at: number; setting: PetAdminSetting }) {
  cleanup();
  if (restore) {
    const { at, setting } = restore;
    vi.setSystemTime(at);
    const raw = localStorage.getItem(PERSIST_ROOT_KEY);
    const slices = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    localStorage.setItem(PERSIST_ROOT_KEY, JSON.stringify({ ...slices, memorialAdmin: setting }));
  }
  await loadPage();
}

type EventType = PetAdminEvent['type'] | 'xstate.after.untilExpiry.petAdmin.active';

const executors = {
  // The setting is restored only when a page loads: coming back with the event's setting
  // stored when none is running, else with what the browser already keeps.
  RESTORED: async (_world, event, before) => {
    const restore = event as Extract<PetAdminEvent, { type: 'RESTORED' }>;
    await reload(before.states.includes('inactive') ? restore : undefined);
  },
  // A signed-out visitor opens a pet page's admin link and chooses to register.
  SET: async (world) => {
    await act(() =>
      router.navigate(
        `/memory/invitation?shareToken=${PET_PAGE}&invitingUserId=inviter&setAdmin=true&pet=true`,
      ),
    );
    const register = await screen.findByRole('button', { name: '新規登録する' });
    world.setFrom = Date.now();
    await world.user.click(register);
    await screen.findByRole('heading', { name: '新規登録' });
    await act(() => router.navigate('/'));
    await screen.findByText(/^pending: /);
  },
  COMPLETE: registerInPetMode,
  // The member keeps the page open until the setting's end.
  'xstate.after.untilExpiry.petAdmin.active': async () => {
    const { expiresAt } = kept();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(expiresAt! - Date.now());
    });
  },
} satisfies Record<EventType, Executor<World>>;

const views: Record<string, ViewAssertion<World>> = {
  inactive: () => {
    expect(pending()).toBe('pending: none');
    expect(kept()).toEqual(emptyPetAdminSetting);
  },
  active: (world, { event }) => {
    expect(pending()).toBe(`pending: ${PET_PAGE}`);
    const setting = kept();
    expect(setting).toMatchObject({ targetMemorialPageEncodedId: PET_PAGE, completed: false });
    // Never longer than 24 hours from now, and still ahead.
    expect(setting.expiresAt! - Date.now()).toBeGreaterThan(0);
    expect(setting.expiresAt! - Date.now()).toBeLessThanOrEqual(TWENTY_FOUR_HOURS);
    if (event?.type === 'SET') {
      expect(setting.expiresAt).toBeGreaterThanOrEqual(world.setFrom + TWENTY_FOUR_HOURS);
      expect(setting.expiresAt).toBeLessThanOrEqual(Date.now() + TWENTY_FOUR_HOURS);
    }
  },
  completed: (world, { event, from }) => {
    if (event?.type === 'COMPLETE' && from.includes('active'))
      // The registration took the pet page of the setting, as the wire has it.
      expect(world.registrations.at(-1)).toMatchObject({ admin_pet_id: PET_PAGE });
    // A completed setting no longer hands the pet page to a registration.
    expect(pending()).toBe('pending: none');
    expect(kept()).toMatchObject({ targetMemorialPageEncodedId: PET_PAGE, completed: true });
  },
};

describeUiReplay('petAdmin', {
  machine: petAdminMachine,
  events: (snapshot) =>
    [
      ...(snapshot.matches('active') ? [{ type: 'xstate.after.untilExpiry.petAdmin.active' }] : []),
      { type: 'RESTORED', setting: stored({}), at: T0 },
      { type: 'RESTORED', setting: stored({ expiresAt: T0 - 1 }), at: T0 },
      { type: 'RESTORED', setting: stored({ completed: true }), at: T0 },
      // A kept setting that lost its page or its expiry is dropped, however recent.
      { type: 'RESTORED', setting: stored({ targetMemorialPageEncodedId: null }), at: T0 },
      { type: 'RESTORED', setting: stored({ expiresAt: null }), at: T0 },
      { type: 'RESTORED', setting: emptyPetAdminSetting, at: T0 },
      { type: 'SET', targetMemorialPageEncodedId: PET_PAGE, at: T0 },
      { type: 'COMPLETE' },
    ] as never,
  executors,
  views,
  mount: async () => {
    localStorage.clear();
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    vi.setSystemTime(T0);
    signedOut();
    const registrations = answerRegistrations();
    await loadPage();
    return {
      user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }),
      registrations,
      setFrom: T0,
    };
  },
  unmount: () => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    localStorage.clear();
  },
});
