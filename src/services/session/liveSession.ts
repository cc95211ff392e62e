import { fromCallback, fromPromise, type ActorRefFrom } from 'xstate';
import { authSessionMachine, type AuthSessionEvent } from '../../machines/authSession';
import { tokenRefreshMachine, type RefreshedTokens } from '../../machines/tokenRefresh';
import type { SessionUpdate, SessionUser } from '../../../contract/sessionLayer';
import { SessionError, type SessionApi } from '../api/session';
import type { HttpSession } from '../http';

export type AuthSessionActor = ActorRefFrom<typeof authSessionMachine>;

/** What the session machine's effects are made of; the app gives the browser's. */
export interface AuthSessionDeps {
  session: SessionApi;
  /** Calls back on tab focus and on a change announced by another tab; answers the stop. */
  watchTabs: (onChange: () => void) => () => void;
  announceChange: () => void;
  syncUser: (user: SessionUser | null) => void;
}

/**
 * The calls that read or change a memorial page, its album or its history: a failed
 * authorisation there leaves the visitor on the page (it may be public) instead of sending
 * them to /login. The memorial API lives under these prefixes; `/memory/` is the pages' own.
 */
const MEMORIAL_CALL_PREFIXES = ['/v1/memorial_page', '/v1/album/', '/v1/history/'];

export function isMemorialCall(path: string): boolean {
  return (
    path.includes('/memory/') || MEMORIAL_CALL_PREFIXES.some((prefix) => path.startsWith(prefix))
  );
}

/** The session machine with its real calls: session layer (refresh included), tab sync. */
export function authSessionWith(deps: AuthSessionDeps) {
  const report = (code: string, error: unknown) => void deps.session.logClientError(code, error);
  const tokenRefresh = tokenRefreshMachine.provide({
    actors: {
      readStoredTokens: fromPromise(async (): Promise<RefreshedTokens | null> => {
        const stored = await deps.session.fetchSession();
        return stored && { accessToken: stored.accessToken };
      }),
      requestTokens: fromPromise(async (): Promise<RefreshedTokens> => {
        const refreshed = await deps.session.refreshSession();
        // No session to refresh is a refusal, as a 401 is.
        if (!refreshed) throw new SessionError(401, 'invalid_refresh_token');
        return { accessToken: refreshed.accessToken };
      }),
    },
  });
  return authSessionMachine.provide({
    actors: {
      fetchSession: fromPromise(() => deps.session.fetchSession()),
      updateSession: fromPromise(({ input }: { input: SessionUpdate }) =>
        deps.session.updateSession(input),
      ),
      signOut: fromPromise(() => deps.session.signOut('/login')),
      tokenRefresh,
      watchTabs: fromCallback<AuthSessionEvent>(({ sendBack }) =>
        deps.watchTabs(() => sendBack({ type: 'REFETCH' })),
      ),
    },
    actions: {
      syncUser: (_, { user }) => deps.syncUser(user),
      announceChange: () => deps.announceChange(),
      reportError: (_, { code, error }) => report(code, error),
    },
  });
}

/** Resolves when the session's snapshot satisfies `done` (at once if it already does). */
export function whenSession(
  actor: AuthSessionActor,
  done: (snapshot: ReturnType<AuthSessionActor['getSnapshot']>) => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    if (done(actor.getSnapshot())) return resolve();
    const subscription = actor.subscribe((snapshot) => {
      if (!done(snapshot)) return;
      subscription.unsubscribe();
      resolve();
    });
  });
}

/** Resolves once the session is known (no longer `loading`). */
const settled = (actor: AuthSessionActor) =>
  whenSession(actor, (snapshot) => !snapshot.matches('loading'));

/**
 * What the HTTP client asks of the session (src/services/http): the token, the one shared
 * refresh, and what an authorisation failure does — sign out, and go to /login except when
 * the failing call's path contains /memory/ (memorial pages are open to visitors).
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
      if (!isMemorialCall(path)) goToLogin();
    },
  };
}
