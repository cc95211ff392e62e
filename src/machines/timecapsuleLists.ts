import { assign, setup } from 'xstate';
import { notProvided } from './notProvided';
import type { LetterEnvelope, ReceivedLetter, UnsentLetter } from '../contract/timecapsule';

/**
 * The /timecapsule/list screen's three lists (spec section 4): letters I administer, my unsent
 * letters and the letters I received load in parallel, each with its own status (its region's
 * state: loading, loaded, failed) and its own error flag, so one failing list never hides the
 * others. An empty list is a normal, loaded list. RETRY reloads one failed list; RELOAD
 * reloads all three (after a letter was written or deleted). Letters already shown stay on
 * screen while their list loads again.
 */
export type TimecapsuleListName = 'admin' | 'unsent' | 'received';

export interface TimecapsuleListsContext {
  admin: { letters: LetterEnvelope[]; error: boolean };
  unsent: { letters: UnsentLetter[]; error: boolean };
  received: { letters: ReceivedLetter[]; error: boolean };
}

export type TimecapsuleListsEvent =
  { type: 'RETRY'; list: TimecapsuleListName } | { type: 'RELOAD' };

type ListParams = { list: TimecapsuleListName };

/** The context with one list's slot changed. */
const withList = (
  context: TimecapsuleListsContext,
  list: TimecapsuleListName,
  change: { letters?: unknown[]; error: boolean },
): Partial<TimecapsuleListsContext> => ({ [list]: { ...context[list], ...change } });

export const timecapsuleListsMachine = setup({
  types: {
    context: {} as TimecapsuleListsContext,
    events: {} as TimecapsuleListsEvent,
  },
  actors: {
    loadAdminLetters: notProvided<LetterEnvelope[]>('timecapsuleLists', 'loadAdminLetters'),
    loadUnsentLetters: notProvided<UnsentLetter[]>('timecapsuleLists', 'loadUnsentLetters'),
    loadReceivedLetters: notProvided<ReceivedLetter[]>('timecapsuleLists', 'loadReceivedLetters'),
  },
  actions: {
    clearError: assign(({ context }, { list }: ListParams) =>
      withList(context, list, { error: false }),
    ),
    storeLetters: assign(({ context }, { list, letters }: ListParams & { letters: unknown[] }) =>
      withList(context, list, { letters, error: false }),
    ),
    flagError: assign(({ context }, { list }: ListParams) =>
      withList(context, list, { error: true }),
    ),
    reportLoadFailure: (_, _params: ListParams & { error: unknown }) => undefined,
  },
  guards: {
    isList: ({ event }, { list }: ListParams) => event.type === 'RETRY' && event.list === list,
  },
}).createMachine({
  id: 'timecapsuleLists',
  type: 'parallel',
  context: {
    admin: { letters: [], error: false },
    unsent: { letters: [], error: false },
    received: { letters: [], error: false },
  },
  states: {
    admin: {
      initial: 'loading',
      states: {
        loading: {
          entry: { type: 'clearError', params: { list: 'admin' } },
          invoke: {
            id: 'loadAdminLetters',
            src: 'loadAdminLetters',
            onDone: {
              target: 'loaded',
              actions: {
                type: 'storeLetters',
                params: ({ event }) => ({ list: 'admin', letters: event.output }),
              },
            },
            onError: {
              target: 'failed',
              actions: [
                { type: 'flagError', params: { list: 'admin' } },
                {
                  type: 'reportLoadFailure',
                  params: ({ event }) => ({ list: 'admin', error: event.error }),
                },
              ],
            },
          },
        },
        loaded: { on: { RELOAD: 'loading' } },
        failed: {
          on: {
            RELOAD: 'loading',
            RETRY: { guard: { type: 'isList', params: { list: 'admin' } }, target: 'loading' },
          },
        },
      },
    },
    unsent: {
      initial: 'loading',
      states: {
        loading: {
          entry: { type: 'clearError', params: { list: 'unsent' } },
          invoke: {
            id: 'loadUnsentLetters',
            src: 'loadUnsentLetters',
            onDone: {
              target: 'loaded',
              actions: {
                type: 'storeLetters',
                params: ({ event }) => ({ list: 'unsent', letters: event.output }),
              },
            },
            onError: {
              target: 'failed',
              actions: [
                { type: 'flagError', params: { list: 'unsent' } },
                {
                  type: 'reportLoadFailure',
                  params: ({ event }) => ({ list: 'unsent', error: event.error }),
                },
              ],
            },
          },
        },
        loaded: { on: { RELOAD: 'loading' } },
        failed: {
          on: {
            RELOAD: 'loading',
            RETRY: { guard: { type: 'isList', params: { list: 'unsent' } }, target: 'loading' },
          },
        },
      },
    },
    received: {
      initial: 'loading',
      states: {
        loading: {
          entry: { type: 'clearError', params: { list: 'received' } },
          invoke: {
            id: 'loadReceivedLetters',
            src: 'loadReceivedLetters',
            onDone: {
              target: 'loaded',
              actions: {
                type: 'storeLetters',
                params: ({ event }) => ({ list: 'received', letters: event.output }),
              },
            },
            onError: {
              target: 'failed',
              actions: [
                { type: 'flagError', params: { list: 'received' } },
                {
                  type: 'reportLoadFailure',
                  params: ({ event }) => ({ list: 'received', error: event.error }),
                },
              ],
            },
          },
        },
        loaded: { on: { RELOAD: 'loading' } },
        failed: {
          on: {
            RELOAD: 'loading',
            RETRY: { guard: { type: 'isList', params: { list: 'received' } }, target: 'loading' },
          },
        },
      },
    },
  },
});
