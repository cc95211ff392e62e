import { fromCallback, fromPromise, type ActorRefFrom } from 'xstate';
import { authSessionMachine, type AuthSessionEvent } from '../../machines/authSession';
import { tokenRefreshMachine, type TokenPair } from '../../machines/tokenRefresh';
import { auth } from '../api/auth';
import {
  fetchSession,
  logClientError,
  signOutOfSession,
  updateSession,
  type SessionUpdate,
  type SessionUser,
} from '../api/session';
import type { HttpSession } from '../http';
import { announceSessionChange, watchSessionChanges } from './tabSync';

export type AuthSessionActor = ActorRefFrom<typeof authSessionMachine>;

/** The token refresh with its real calls: read the cookie, POST /v1/refresh, store the pair. */
export const liveTokenRefreshMachine = tokenRefreshMachine.provide({
  actors: {
    readStoredTokens: fromPromise(async (): Promise<TokenPair | null> => {
      const stored = await fetchSession();
      return stored?.refreshToken
        ? { accessToken: stored.accessToken, refreshToken: stored.refreshToken }
        : null;
    }),
    requestTokens: fromPromise(({ input }: { input: { refreshToken: string } }) =>
      auth.refresh(input.refreshToken),
    ),
    storeTokens: fromPromise(async ({ input }: { input: TokenPair }) => {
      await updateSession(input);
    }),
  },
  actions: {
    reportStoreFailure: (_, { error }) => void logClientError('CLIENT_SESSION_ERROR', error),
  },
});

type UserSync = (user: SessionUser | null) => void;

let syncUserSlices: UserSync = () => undefined;

/** The SessionProvider connects the client-state slices; the returned function disconnects. */
export function connectUserSync(sync: UserSync): () => void {
  syncUserSlices = sync;
  return () => {
    if (syncUserSlices === sync) syncUserSlices = () => undefined;
  };
}

/** The auth session with its real effects. */
export const liveAuthSessionMachine = authSessionMachine.provide({
  actors: {
    fetchSession: fromPromise(() => fetchSession()),
    updateSession: fromPromise(({ input }: { input: SessionUpdate }) => updateSession(input)),
    signOut: fromPromise(() => signOutOfSession('/login')),
    tokenRefresh: liveTokenRefreshMachine,
    watchTabs: fromCallback<AuthSessionEvent>(({ sendBack }) =>
      watchSessionChanges(() => sendBack({ type: 'REFETCH' })),
    ),
  },
  actions: {
    syncUser: (_, { user }) => syncUserSlices(user),
    announceChange: () => announceSessionChange(),
    reportError: (_, { code, error }) => {
      console.error(code, error);
      void logClientError(code, error);
    },
  },
});

/** Resolves once the session is known (no longer `loading`). */
function settled(actor: AuthSessionActor): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (actor.getSnapshot().matches('loading')) return false;
      resolve();
      return true;
    };
    if (check()) return;
    const subscription = actor.subscribe(() => {
      if (check()) subscription.unsubscribe();
    });
  });
}

/**
 * What the HTTP client asks of the session (src/services/http): the token, the one shared
 * refresh, and what an authorisation failure does — sign out, and go to /login except when
 * the failing call's path contains /memory/ (memorial pages are open to visitors, spec §2).
 */
export function httpSessionOf(actor: AuthSessionActor, goToLogin: () => void): HttpSession {
  return {
    accessToken: async () => {
      await settled(actor);
      return actor.getSnapshot().context.session?.accessToken;
    },
    refresh: async () => {
      await settled(actor);
      return new Promise((resolve) => {
        const done = actor.on('refreshed', () => {
          failed.unsubscribe();
          done.unsubscribe();
          resolve({ ok: true });
        });
        const failed = actor.on('refreshFailed', ({ loggedOut, error }) => {
          failed.unsubscribe();
          done.unsubscribe();
          resolve({ ok: false, loggedOut, error });
        });
        actor.send({ type: 'REFRESH' });
      });
    },
    authorisationFailed: (path) => {
      if (actor.getSnapshot().matches('authenticated')) actor.send({ type: 'SIGN_OUT' });
      if (!path.includes('/memory/')) goToLogin();
    },
  };
}
