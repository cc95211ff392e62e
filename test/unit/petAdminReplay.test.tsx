import { act, cleanup, render, screen } from '@testing-library/react';
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

/**
 * The page's pet-admin setting as the screens that host it use it: the invitation screen
 * sets it from a pet's admin link, the registration screen reads the pending page and
 * completes it. Both go through `usePetAdminSetting`, under the app's real client state.
 */
function PetAdminHost() {
  const petAdmin = usePetAdminSetting();
  return (
    <main>
      <p>pending: {petAdmin.pendingPetPageId ?? 'none'}</p>
      <button type="button" onClick={() => petAdmin.set(PET_PAGE)}>
        Open pet admin link
      </button>
      <button type="button" onClick={() => petAdmin.complete()}>
        Register in pet mode
      </button>
    </main>
  );
}

interface World {
  user: ReturnType<typeof userEvent.setup>;
  /** Date.now() just before the latest SET gesture. */
  setFrom: number;
}

/** Loads the page: the client state restores the persisted slices, then the pet-admin chart. */
async function loadPage(): Promise<void> {
  render(
    <AppProviders>
      <PetAdminHost />
    </AppProviders>,
  );
  await screen.findByText(/^pending: /);
}

/** What this browser keeps of the setting (the persisted memorialAdmin slice). */
function kept(): PetAdminSetting {
  const raw = localStorage.getItem(PERSIST_ROOT_KEY);
  const parsed = raw ? (JSON.parse(raw) as { memorialAdmin?: PetAdminSetting }) : {};
  return parsed.memorialAdmin ?? emptyPetAdminSetting;
}

const pending = () => screen.getByText(/^pending: /).textContent;

/** Leaves the page and comes back to it at `at`, with `setting` in storage. */
async function reload(at: number, setting: PetAdminSetting | undefined) {
  cleanup();
  vi.setSystemTime(at);
  if (setting) {
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
    const { setting, at } = event as Extract<PetAdminEvent, { type: 'RESTORED' }>;
    await reload(at, before.states.includes('inactive') ? setting : undefined);
  },
  SET: async (world) => {
    world.setFrom = Date.now();
    await world.user.click(screen.getByRole('button', { name: 'Open pet admin link' }));
  },
  COMPLETE: async ({ user }) => {
    await user.click(screen.getByRole('button', { name: 'Register in pet mode' }));
  },
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
  completed: () => {
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
    await loadPage();
    return {
      user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }),
      setFrom: T0,
    };
  },
  unmount: () => {
    cleanup();
    vi.useRealTimers();
    localStorage.clear();
  },
});
