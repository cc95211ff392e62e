import { assign, emit, fromCallback, fromPromise, setup } from 'xstate';
import type { AuthSession, SessionUpdate, SessionUser } from '../services/api/session';
import { tokenRefreshMachine, type TokenRefreshOutput } from './tokenRefresh';

/**
 * The auth session (spec §3 "Auth session", §4): `loading` while the session is fetched,
 * then `authenticated` or `unauthenticated`. It is refetched on tab focus, when another tab
 * changed it and, when a poll interval is given, by polling; `UPDATE` posts new session
 * data. It owns the token refresh (design §8): `REFRESH` runs one tokenRefresh at a time and
 * every caller hears the one outcome it emits (`refreshed` / `refreshFailed`).
 */
export type AuthSessionEvent =
  | { type: 'REFETCH' }
  | { type: 'SIGNED_IN' }
  | { type: 'UPDATE'; data: SessionUpdate }
  | { type: 'REFRESH' }
  | { type: 'SIGN_OUT' };

export type AuthSessionEmitted =
  | { type: 'refreshed'; accessToken: string }
  | { type: 'refreshFailed'; loggedOut: boolean; error?: unknown }
  | { type: 'updated' }
  | { type: 'updateFailed'; error: unknown };

export interface AuthSessionInput {
  /** Refetch this often while signed in; null: no polling. */
  pollIntervalMs?: number | null;
}

interface AuthSessionContext {
  session: AuthSession | null;
  pollIntervalMs: number | null;
}

type RefreshedOutput = Extract<TokenRefreshOutput, { outcome: 'refreshed' }>;
type FailedOutput = Extract<TokenRefreshOutput, { outcome: 'failed' }>;

export const authSessionMachine = setup({
  types: {
    context: {} as AuthSessionContext,
    events: {} as AuthSessionEvent,
    input: {} as AuthSessionInput,
    emitted: {} as AuthSessionEmitted,
  },
  actors: {
    fetchSession: fromPromise<AuthSession | null>(async () => null),
    updateSession: fromPromise<AuthSession | null, SessionUpdate>(async () => null),
    signOut: fromPromise<void>(async () => undefined),
    tokenRefresh: tokenRefreshMachine,
    /** Sends REFETCH on tab focus and when another tab announces a change. */
    watchTabs: fromCallback<AuthSessionEvent>(() => undefined),
  },
  actions: {
    /** Keeps the persisted `user` slice and `nav.isLogged` in step with the session. */
    syncUser: (_, _params: { user: SessionUser | null }) => undefined,
    /** Tells the other tabs that this one changed the session. */
    announceChange: () => undefined,
    reportError: (_, _params: { code: string; error: unknown }) => undefined,
  },
  guards: {
    hasSession: (_, params: { session: AuthSession | null }) => params.session !== null,
    pollingEnabled: ({ context }) => (context.pollIntervalMs ?? 0) > 0,
    refreshed: (_, params: { output: TokenRefreshOutput }) => params.output.outcome === 'refreshed',
    loggedOut: (_, params: { output: TokenRefreshOutput }) => params.output.outcome === 'loggedOut',
  },
  delays: {
    pollInterval: ({ context }) => context.pollIntervalMs ?? 0,
  },
}).createMachine({
  id: 'authSession',
  context: ({ input }) => ({ session: null, pollIntervalMs: input.pollIntervalMs ?? null }),
  initial: 'loading',
  invoke: {
    id: 'watchTabs',
    src: 'watchTabs',
    onError: {
      actions: {
        type: 'reportError',
        params: ({ event }) => ({ code: 'CLIENT_SESSION_ERROR', error: event.error }),
      },
    },
  },
  on: {
    SIGN_OUT: '.signingOut',
  },
  states: {
    loading: {
      invoke: {
        id: 'fetchSession',
        src: 'fetchSession',
        onDone: [
          {
            guard: { type: 'hasSession', params: ({ event }) => ({ session: event.output }) },
            target: 'authenticated',
            actions: assign({ session: ({ event }) => event.output }),
          },
          { target: 'unauthenticated' },
        ],
        onError: {
          target: 'unauthenticated',
          actions: {
            type: 'reportError',
            params: ({ event }) => ({ code: 'CLIENT_FETCH_ERROR', error: event.error }),
          },
        },
      },
    },
    authenticated: {
      initial: 'idle',
      on: {
        // The server holds the refresh token (in the httpOnly cookie) and decides.
        REFRESH: '.refreshing',
      },
      states: {
        idle: {
          entry: { type: 'syncUser', params: ({ context }) => ({ user: context.session!.user }) },
          on: {
            REFETCH: 'refetching',
            UPDATE: 'updating',
          },
          after: {
            pollInterval: { guard: 'pollingEnabled', target: 'refetching' },
          },
        },
        refetching: {
          invoke: {
            id: 'refetchSession',
            src: 'fetchSession',
            onDone: [
              {
                guard: { type: 'hasSession', params: ({ event }) => ({ session: event.output }) },
                target: 'idle',
                actions: assign({ session: ({ event }) => event.output }),
              },
              { target: '#authSession.unauthenticated', actions: assign({ session: null }) },
            ],
            onError: {
              target: 'idle',
              actions: {
                type: 'reportError',
                params: ({ event }) => ({ code: 'CLIENT_FETCH_ERROR', error: event.error }),
              },
            },
          },
        },
        updating: {
          invoke: {
            id: 'updateSession',
            src: 'updateSession',
            input: ({ event }) => (event as Extract<AuthSessionEvent, { type: 'UPDATE' }>).data,
            onDone: {
              target: 'idle',
              actions: [
                assign({ session: ({ context, event }) => event.output ?? context.session }),
                'announceChange',
                emit({ type: 'updated' } as const),
              ],
            },
            onError: {
              target: 'idle',
              actions: emit(({ event }) => ({ type: 'updateFailed', error: event.error }) as const),
            },
          },
        },
        refreshing: {
          on: {
            // Single flight: a REFRESH while one runs waits for the same outcome.
            REFRESH: {},
          },
          invoke: {
            id: 'tokenRefresh',
            src: 'tokenRefresh',
            input: ({ context }) => ({ accessToken: context.session!.accessToken }),
            onDone: [
              {
                guard: { type: 'refreshed', params: ({ event }) => ({ output: event.output }) },
                target: 'idle',
                actions: [
                  assign({
                    session: ({ context, event }) => ({
                      ...context.session!,
                      ...(event.output as RefreshedOutput).tokens,
                    }),
                  }),
                  'announceChange',
                  emit(
                    ({ event }) =>
                      ({
                        type: 'refreshed',
                        accessToken: (event.output as RefreshedOutput).tokens.accessToken,
                      }) as const,
                  ),
                ],
              },
              {
                guard: { type: 'loggedOut', params: ({ event }) => ({ output: event.output }) },
                target: '#authSession.signingOut',
                actions: emit({ type: 'refreshFailed', loggedOut: true } as const),
              },
              {
                target: 'idle',
                actions: emit(
                  ({ event }) =>
                    ({
                      type: 'refreshFailed',
                      loggedOut: false,
                      error: (event.output as FailedOutput).error,
                    }) as const,
                ),
              },
            ],
            onError: {
              target: 'idle',
              actions: emit(
                ({ event }) =>
                  ({ type: 'refreshFailed', loggedOut: false, error: event.error }) as const,
              ),
            },
          },
        },
      },
    },
    unauthenticated: {
      entry: { type: 'syncUser', params: { user: null } },
      initial: 'idle',
      on: {
        // Nothing to refresh with: every waiting call fails as signed out.
        REFRESH: { actions: emit({ type: 'refreshFailed', loggedOut: true } as const) },
      },
      states: {
        idle: {
          on: {
            REFETCH: 'refetching',
            SIGNED_IN: { target: 'refetching', actions: 'announceChange' },
          },
        },
        refetching: {
          invoke: {
            id: 'refetchSession',
            src: 'fetchSession',
            onDone: [
              {
                guard: { type: 'hasSession', params: ({ event }) => ({ session: event.output }) },
                target: '#authSession.authenticated',
                actions: assign({ session: ({ event }) => event.output }),
              },
              { target: 'idle' },
            ],
            onError: {
              target: 'idle',
              actions: {
                type: 'reportError',
                params: ({ event }) => ({ code: 'CLIENT_FETCH_ERROR', error: event.error }),
              },
            },
          },
        },
      },
    },
    signingOut: {
      on: {
        SIGN_OUT: {},
        REFRESH: { actions: emit({ type: 'refreshFailed', loggedOut: true } as const) },
      },
      // Tokens go at once: no call made from here on carries them.
      entry: [assign({ session: null }), { type: 'syncUser', params: { user: null } }],
      invoke: {
        id: 'signOut',
        src: 'signOut',
        onDone: { target: 'unauthenticated', actions: 'announceChange' },
        onError: {
          target: 'unauthenticated',
          actions: [
            'announceChange',
            {
              type: 'reportError',
              params: ({ event }) => ({ code: 'SIGNOUT_ERROR', error: event.error }),
            },
          ],
        },
      },
    },
  },
});
