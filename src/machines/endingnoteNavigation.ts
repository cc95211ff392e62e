import { setup } from 'xstate';

/** The "endingnote" menu entry (spec §2): the user's own ending note, or /login when logged out. */
export type EndingnoteNavigationEvent = { type: 'OPEN'; userId: string | null };

export const endingnoteNavigationMachine = setup({
  types: { events: {} as EndingnoteNavigationEvent },
  actions: {
    navigate: (_, _params: { to: string }) => undefined,
    goToLogin: () => undefined,
  },
  guards: {
    loggedIn: ({ event }) => event.userId !== null,
  },
}).createMachine({
  id: 'endingnoteNavigation',
  initial: 'idle',
  states: {
    idle: {
      on: {
        OPEN: [
          {
            guard: 'loggedIn',
            actions: {
              type: 'navigate',
              params: ({ event }) => ({ to: `/endingnote/${event.userId}` }),
            },
          },
          { actions: 'goToLogin' },
        ],
      },
    },
  },
});
