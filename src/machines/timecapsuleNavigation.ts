import { assign, fromPromise, setup } from 'xstate';

/**
 * The "timecapsule" menu entry: the unsent letters load as soon as the menu is
 * shown; a click while they load does nothing; with none it opens /timecapsule, otherwise
 * /timecapsule/list. A visitor who is not logged in goes to /login (the letters are a
 * member's own; the session sends SIGNED_IN and SIGNED_OUT). When the letters cannot be read, the start page opens: it is where a member
 * without letters begins, and it reads its own data again.
 */
export const TIMECAPSULE_START = '/timecapsule';
export const TIMECAPSULE_LIST = '/timecapsule/list';

export type TimecapsuleNavigationEvent =
  { type: 'OPEN' } | { type: 'RELOAD' } | { type: 'SIGNED_IN' } | { type: 'SIGNED_OUT' };

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "timecapsuleNavigation" was not provided`);
  });

export const timecapsuleNavigationMachine = setup({
  types: {
    context: {} as { unsentLetters: number },
    events: {} as TimecapsuleNavigationEvent,
  },
  actors: {
    loadUnsentLetters: notProvided<unknown[]>('loadUnsentLetters'),
  },
  actions: {
    navigate: (_, _params: { to: string }) => undefined,
    goToLogin: () => undefined,
    reportLoadFailure: (_, _params: { error: unknown }) => undefined,
  },
  guards: {
    hasUnsentLetters: ({ context }) => context.unsentLetters > 0,
  },
}).createMachine({
  id: 'timecapsuleNavigation',
  context: { unsentLetters: 0 },
  initial: 'loggedOut',
  on: {
    SIGNED_OUT: { target: '.loggedOut', actions: assign({ unsentLetters: 0 }) },
  },
  states: {
    loggedOut: {
      on: {
        OPEN: { actions: 'goToLogin' },
        SIGNED_IN: 'loading',
      },
    },
    loading: {
      invoke: {
        id: 'loadUnsentLetters',
        src: 'loadUnsentLetters',
        onDone: {
          target: 'ready',
          actions: assign({ unsentLetters: ({ event }) => event.output.length }),
        },
        onError: {
          target: 'failed',
          actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    ready: {
      on: {
        OPEN: [
          {
            guard: 'hasUnsentLetters',
            actions: { type: 'navigate', params: { to: TIMECAPSULE_LIST } },
          },
          { actions: { type: 'navigate', params: { to: TIMECAPSULE_START } } },
        ],
        RELOAD: 'loading',
      },
    },
    failed: {
      on: {
        OPEN: { actions: { type: 'navigate', params: { to: TIMECAPSULE_START } } },
        RELOAD: 'loading',
      },
    },
  },
});
