import { assign, emit, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import type { AuthSession, SessionUpdate, SessionUser } from '../../contract/sessionLayer';
import type { TokenRefreshInput, TokenRefreshOutput, tokenRefreshMachine } from './tokenRefresh';

/**
 * The auth session: `loading` while the session is fetched,
 * then `authenticated` or `unauthenticated`. It is refetched on tab focus and when another
 * tab changed it (no polling); `UPDATE` posts new session
 * data. It owns the token refresh, single-flight: `REFRESH` runs one tokenRefresh at a time and
 * every caller hears the one outcome it emits (`refreshed` / `refreshFailed`).
 *
 * Every `UPDATE` settles: it waits in a queue while the session loads, refetches, refreshes
 * or makes an earlier update, and each one ends with `updated` or `updateFailed` carrying its
 * `requestId`; when the session ends first, the waiting ones fail. A `REFRESH` during an
 * update waits for it rather than cancelling it.
 */
export type AuthSessionEvent =
  | { type: 'REFETCH' }
  | { type: 'SIGNED_IN' }
  | { type: 'UPDATE'; requestId: number; data: SessionUpdate }
  | { type: 'REFRESH' }
  | { type: 'SIGN_OUT' };

export type AuthSessionEmitted =
  | { type: 'refreshed'; accessToken: string }
  | { type: 'refreshFailed'; loggedOut: boolean; error?: unknown }
  | { type: 'updated'; requestId: number }
  | { type: 'updateFailed'; requestId: number; error: unknown };

export interface PendingUpdate {
  requestId: number;
  data: SessionUpdate;
}

interface AuthSessionContext {
  session: AuthSession | null;
  /** Updates not yet settled, oldest first; the first one runs while `updating`. */
  pendingUpdates: PendingUpdate[];
  /** A REFRESH arrived during an update: it runs once the update has settled. */
  refreshRequested: boolean;
}

/** Why an update fails when the session ends before it could be made. */
export const SESSION_ENDED = 'The session ended before the update was made';

type RefreshedOutput = Extract<TokenRefreshOutput, { outcome: 'refreshed' }>;
type FailedOutput = Extract<TokenRefreshOutput, { outcome: 'failed' }>;

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "authSession" was not provided`);
  });

export const authSessionMachine = setup({
  types: {
    context: {} as AuthSessionContext,
    events: {} as AuthSessionEvent,
    emitted: {} as AuthSessionEmitted,
  },
  actors: {
    fetchSession: notProvided<AuthSession | null>('fetchSession'),
    updateSession: notProvided<AuthSession | null, SessionUpdate>('updateSession'),
    signOut: notProvided<void>('signOut'),
    /**
     * One refresh: the app provides the tokenRefresh machine, so this file imports it as a type
     * only (and pastes into the Stately editor); cast to that machine's type, which the
     * placeholder cannot have, so that `.provide()` accepts the real one.
     */
    tokenRefresh: notProvided<TokenRefreshOutput, TokenRefreshInput>(
      'tokenRefresh',
    ) as unknown as typeof tokenRefreshMachine,
    /** Sends REFETCH on tab focus and when another tab announces a change. */
    watchTabs: fromCallback<AuthSessionEvent>(() => {
      throw new Error('The actor "watchTabs" of the machine "authSession" was not provided');
    }),
  },
  actions: {
    queueUpdate: assign({
      pendingUpdates: ({ context, event }) =>
        event.type === 'UPDATE'
          ? [...context.pendingUpdates, { requestId: event.requestId, data: event.data }]
          : context.pendingUpdates,
    }),
    rejectUpdate: emit(({ event }) => ({
      type: 'updateFailed' as const,
      requestId: event.type === 'UPDATE' ? event.requestId : -1,
      error: new Error(SESSION_ENDED),
    })),
    /** Keeps the persisted `user` slice and `nav.isLogged` in step with the session. */
    syncUser: (_, _params: { user: SessionUser | null }) => undefined,
    /** Tells the other tabs that this one changed the session. */
    announceChange: () => undefined,
    reportError: (_, _params: { code: string; error: unknown }) => undefined,
  },
  guards: {
    hasSession: (_, params: { session: AuthSession | null }) => params.session !== null,
    updatePending: ({ context }) => context.pendingUpdates.length > 0,
    refreshRequested: ({ context }) => context.refreshRequested,
    refreshed: (_, params: { output: TokenRefreshOutput }) => params.output.outcome === 'refreshed',
    loggedOut: (_, params: { output: TokenRefreshOutput }) => params.output.outcome === 'loggedOut',
  },
}).createMachine({
  id: 'authSession',
  context: {
    session: null,
    pendingUpdates: [],
    refreshRequested: false,
  },
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
    UPDATE: { actions: 'queueUpdate' },
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
          always: [
            { guard: 'refreshRequested', target: 'refreshing' },
            { guard: 'updatePending', target: 'updating' },
          ],
          on: {
            REFETCH: 'refetching',
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
          on: {
            // The update in flight is not cancelled: the refresh runs once it has settled.
            REFRESH: { actions: assign({ refreshRequested: true }) },
            // The calls waiting for that refresh hear that there will be none.
            SIGN_OUT: {
              guard: 'refreshRequested',
              target: '#authSession.signingOut',
              actions: emit({ type: 'refreshFailed', loggedOut: true } as const),
            },
          },
          invoke: {
            id: 'updateSession',
            src: 'updateSession',
            input: ({ context }) => context.pendingUpdates[0]!.data,
            onDone: {
              target: 'idle',
              actions: [
                assign({ session: ({ context, event }) => event.output ?? context.session }),
                'announceChange',
                emit(({ context }) => ({
                  type: 'updated' as const,
                  requestId: context.pendingUpdates[0]!.requestId,
                })),
                assign({ pendingUpdates: ({ context }) => context.pendingUpdates.slice(1) }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                emit(({ context, event }) => ({
                  type: 'updateFailed' as const,
                  requestId: context.pendingUpdates[0]!.requestId,
                  error: event.error,
                })),
                assign({ pendingUpdates: ({ context }) => context.pendingUpdates.slice(1) }),
              ],
            },
          },
        },
        refreshing: {
          entry: assign({ refreshRequested: false }),
          on: {
            // Single flight: a REFRESH while one runs waits for the same outcome.
            REFRESH: {},
            // Signing out stops the refresh: the calls waiting for it hear that it failed, or
            // they (and the HTTP client, which holds every call while a refresh is out) wait
            // for ever.
            SIGN_OUT: {
              target: '#authSession.signingOut',
              actions: emit({ type: 'refreshFailed', loggedOut: true } as const),
            },
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
      entry: [
        { type: 'syncUser', params: { user: null } },
        // Every waiting update fails (signing out ends here too): there is no session to update.
        enqueueActions(({ context, enqueue }) => {
          for (const { requestId } of context.pendingUpdates)
            enqueue.emit({ type: 'updateFailed', requestId, error: new Error(SESSION_ENDED) });
          enqueue.assign({ pendingUpdates: [] });
        }),
      ],
      initial: 'idle',
      on: {
        UPDATE: { actions: 'rejectUpdate' },
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
        UPDATE: { actions: 'rejectUpdate' },
      },
      // Tokens go at once: no call made from here on carries them.
      entry: [
        assign({ session: null, refreshRequested: false }),
        { type: 'syncUser', params: { user: null } },
      ],
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
