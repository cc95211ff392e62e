import { assign, fromPromise, setup } from 'xstate';

/**
 * The "memory" menu entry: with no logged-in user it goes to
 * /login; it needs a token and the user's own memorial page id, otherwise nothing happens;
 * it loads album, history and admins of that page and opens the sparse-page top
 * (/memory/top/me) when the album is empty and there is at most one history entry and at most
 * one admin, the memorial page itself otherwise.
 */
export interface MemorialPageContents {
  album: unknown[];
  histories: unknown[];
  admins: unknown[];
}

export const SPARSE_PAGE_TOP = '/memory/top/me';

export function isSparseMemorialPage({ album, histories, admins }: MemorialPageContents): boolean {
  return album.length === 0 && histories.length <= 1 && admins.length <= 1;
}

export type MemoryNavigationEvent = {
  type: 'OPEN';
  loggedIn: boolean;
  hasToken: boolean;
  memorialPageId: string | null;
};

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "memoryNavigation" was not provided`);
  });

export const memoryNavigationMachine = setup({
  types: {
    context: {} as { memorialPageId: string | null },
    events: {} as MemoryNavigationEvent,
  },
  actors: {
    loadMemorialPageContents: notProvided<MemorialPageContents, { memorialPageId: string }>(
      'loadMemorialPageContents',
    ),
  },
  actions: {
    navigate: (_, _params: { to: string }) => undefined,
    goToLogin: () => undefined,
    reportLoadFailure: (_, _params: { error: unknown }) => undefined,
  },
  guards: {
    loggedOut: ({ event }) => !event.loggedIn,
    hasOwnPage: ({ event }) => event.hasToken && event.memorialPageId !== null,
    isSparse: (_, contents: MemorialPageContents) => isSparseMemorialPage(contents),
  },
}).createMachine({
  id: 'memoryNavigation',
  context: { memorialPageId: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        OPEN: [
          { guard: 'loggedOut', actions: 'goToLogin' },
          {
            guard: 'hasOwnPage',
            target: 'loading',
            actions: assign({ memorialPageId: ({ event }) => event.memorialPageId }),
          },
        ],
      },
    },
    loading: {
      invoke: {
        id: 'loadMemorialPageContents',
        src: 'loadMemorialPageContents',
        input: ({ context }) => ({ memorialPageId: context.memorialPageId ?? '' }),
        onDone: [
          {
            guard: { type: 'isSparse', params: ({ event }) => event.output },
            target: 'idle',
            actions: { type: 'navigate', params: { to: SPARSE_PAGE_TOP } },
          },
          {
            target: 'idle',
            actions: {
              type: 'navigate',
              params: ({ context }) => ({ to: `/memory/${context.memorialPageId}` }),
            },
          },
        ],
        onError: {
          target: 'idle',
          actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});
