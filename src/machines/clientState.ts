import { assign, fromPromise, setup } from 'xstate';

/**
 * The client's state slices and their restore at start: user,
 * memorialAdmin and unreadNotification are persisted under one root key; the UI waits for
 * the restore, at most RESTORE_TIMEOUT_MS. A global RESET returns every slice to its initial
 * value and clears what was persisted.
 */
export const RESTORE_TIMEOUT_MS = 5000;

export interface SessionUserSlice {
  id: string;
  username: string;
  memorialPageId: string | null;
  iconUrl: string | null;
}

export interface ClientSlices {
  nav: { showSideMenu: boolean; isLogged: boolean; postLoginRedirectUrl: string | null };
  user: SessionUserSlice | null;
  memory: { type: 'self' | 'other' | 'pet' | null; user: string | null; pet: string | null };
  memorialAdmin: {
    targetMemorialPageEncodedId: string | null;
    expiresAt: number | null;
    completed: boolean;
  };
  unreadNotification: { count: number };
  invitation: { shareToken: string | null; invitingUserId: string | null; setAdmin: boolean };
}

export const PERSISTED_SLICES = ['user', 'memorialAdmin', 'unreadNotification'] as const;
export type PersistedSliceName = (typeof PERSISTED_SLICES)[number];
export type PersistedSlices = Pick<ClientSlices, PersistedSliceName>;

export const initialSlices: ClientSlices = {
  nav: { showSideMenu: false, isLogged: false, postLoginRedirectUrl: null },
  user: null,
  memory: { type: null, user: null, pet: null },
  memorialAdmin: { targetMemorialPageEncodedId: null, expiresAt: null, completed: false },
  unreadNotification: { count: 0 },
  invitation: { shareToken: null, invitingUserId: null, setAdmin: false },
};

export type SliceName = keyof ClientSlices;

export type ClientStateEvent =
  | {
      [K in SliceName]: { type: 'UPDATE'; slice: K; value: ClientSlices[K] };
    }[SliceName]
  | { type: 'RESET' };

export interface ClientStateContext {
  slices: ClientSlices;
  /** True when the restore gave up after RESTORE_TIMEOUT_MS and started from the initial slices. */
  restoreTimedOut: boolean;
}

/** Equal slice values: the same value, or plain objects with the same own values. */
export function sameSliceValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) =>
      Object.is((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "clientState" was not provided`);
  });

export const clientStateMachine = setup({
  types: {
    context: {} as ClientStateContext,
    events: {} as ClientStateEvent,
  },
  guards: {
    /**
     * An UPDATE that changes nothing is dropped: the slice keeps its object, so no reader
     * re-renders and nothing is written to storage (the frame's checks write the same user,
     * nav and count on every load).
     */
    changesSlice: ({ context, event }) =>
      event.type === 'UPDATE' && !sameSliceValue(context.slices[event.slice], event.value),
  },
  actors: {
    restorePersisted: notProvided<Partial<PersistedSlices>>('restorePersisted'),
  },
  actions: {
    persist: (_, _params: { slices: ClientSlices }) => undefined,
    /** Removes the persisted slices from storage. */
    clearPersisted: () => undefined,
    reportRestoreFailure: (_, _params: { error: unknown }) => undefined,
  },
}).createMachine({
  id: 'clientState',
  context: { slices: initialSlices, restoreTimedOut: false },
  initial: 'restoring',
  states: {
    restoring: {
      invoke: {
        id: 'restorePersisted',
        src: 'restorePersisted',
        onDone: {
          target: 'ready',
          actions: assign({
            slices: ({ context, event }) => ({ ...context.slices, ...event.output }),
          }),
        },
        onError: {
          target: 'ready',
          actions: {
            type: 'reportRestoreFailure',
            params: ({ event }) => ({ error: event.error }),
          },
        },
      },
      after: {
        [RESTORE_TIMEOUT_MS]: { target: 'ready', actions: assign({ restoreTimedOut: true }) },
      },
    },
    ready: {
      on: {
        UPDATE: {
          guard: 'changesSlice',
          actions: [
            assign({
              slices: ({ context, event }) => ({ ...context.slices, [event.slice]: event.value }),
            }),
            { type: 'persist', params: ({ context }) => ({ slices: context.slices }) },
          ],
        },
        RESET: { actions: [assign({ slices: initialSlices }), 'clearPersisted'] },
      },
    },
  },
});
