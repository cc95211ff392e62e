import {
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { actorSubscription } from '../../lib/actorSubscription';
import { useClientStateSend, useSlice } from '../clientState/clientState';
import { PERSIST_ROOT_KEY } from '../persistence/clientStorage';
import type { SessionUser } from '../../../contract/sessionLayer';
import { connectHttpSession } from '../http/connection';
import type { HttpSession } from '../http';
import type { AuthSessionActor } from './liveSession';
import type * as sessionRuntime from './sessionRuntime';
import { SessionContext, type SessionStatus, type SessionValue } from './SessionContext';
import { rememberOwnMemorialPageId } from '../persistence/firstVisit';
import { storedUserIdIsInvalid } from './storedUser';
import { isMemberOnlyPath, takeReturnTo } from '../../../contract/pages/memberOnly';

/**
 * The session's statecharts and calls (`sessionRuntime.ts`), loaded once: by the provider
 * after the first render, or sooner by `main.tsx` when the page carries a member's session.
 */
export const loadSessionRuntime = (() => {
  let loading: Promise<SessionRuntime> | undefined;
  return () => (loading ??= import('./sessionRuntime'));
})();

type SessionRuntime = typeof sessionRuntime;

interface LiveSession {
  runtime: SessionRuntime;
  actor: AuthSessionActor;
}

type AuthSnapshot = ReturnType<AuthSessionActor['getSnapshot']>;

const statusOf = (snapshot: AuthSnapshot): SessionStatus =>
  snapshot.matches('loading')
    ? 'loading'
    : snapshot.matches('authenticated')
      ? 'authenticated'
      : 'unauthenticated';

const isSettled = (snapshot: AuthSnapshot) =>
  snapshot.matches({ authenticated: 'idle' }) || snapshot.matches({ unauthenticated: 'idle' });

/**
 * Runs the authSession machine for the app: keeps the `user` and `nav` slices in step with
 * it, connects the HTTP client to it, and offers it through `useSession()`.
 * `navigate` sends the user to /login after an authorisation failure. The machine and its
 * calls come in a chunk of their own after the first render; until it runs, the session is
 * `loading`, as it is until the machine's first answer.
 */
export function SessionProvider({
  children,
  navigate,
}: {
  children: ReactNode;
  navigate: (to: string) => void;
}) {
  const sendClientState = useClientStateSend();
  const nav = useSlice('nav');
  const latestNav = useRef(nav);
  const latestNavigate = useRef(navigate);
  useEffect(() => {
    latestNav.current = nav;
    latestNavigate.current = navigate;
  }, [nav, navigate]);

  const [live, setLive] = useState<LiveSession>();
  const [started] = useState(() => {
    let resolve: (session: LiveSession) => void = () => undefined;
    const promise = new Promise<LiveSession>((done) => (resolve = done));
    return { promise, resolve };
  });
  // Tells each update's outcome apart from those of updates sent before it.
  const nextUpdateId = useRef(0);

  useEffect(() => {
    // The server sent a visitor from a member-only page to /login: the page to come back to.
    const returnTo = takeReturnTo();
    if (returnTo !== null) {
      latestNav.current = { ...latestNav.current, postLoginRedirectUrl: returnTo };
      sendClientState({ type: 'UPDATE', slice: 'nav', value: latestNav.current });
    }
    // To /login, remembering the page to come back to after the sign-in.
    const goToLogin = () => {
      const here = `${window.location.pathname}${window.location.search}`;
      if (window.location.pathname !== '/login') {
        sendClientState({
          type: 'UPDATE',
          slice: 'nav',
          value: { ...latestNav.current, postLoginRedirectUrl: here },
        });
      }
      latestNavigate.current('/login');
    };
    // A visitor who opened a member-only route (routeTable.ts) goes to /login as soon as the
    // session's first answer says so, as the server sends one without a session cookie;
    // later sign-outs leave the page to the screens and the API's 401.
    const answered = (snapshot: AuthSnapshot) => {
      if (snapshot.matches('loading')) return false;
      if (snapshot.matches('unauthenticated') && isMemberOnlyPath(window.location.pathname)) {
        goToLogin();
      }
      return true;
    };
    // The HTTP client is connected at once, as before the machine came in a chunk: a call made
    // while the chunk loads waits for the session instead of going out without its token.
    let connected: (session: HttpSession) => void = () => undefined;
    const httpSession = new Promise<HttpSession>((resolve) => (connected = resolve));
    const disconnectHttp = connectHttpSession({
      accessToken: async () => (await httpSession).accessToken(),
      refresh: async () => (await httpSession).refresh(),
      authorisationFailed: (path) =>
        void httpSession.then((session) => session.authorisationFailed(path)),
    });
    let stop: () => void = () => undefined;
    let cancelled = false;
    void loadSessionRuntime().then((runtime) => {
      if (cancelled) return;
      // The slices follow the session from its first answer on: connected before it starts.
      const disconnectUser = runtime.connectUserSync((user: SessionUser | null) => {
        sendClientState({ type: 'UPDATE', slice: 'user', value: user });
        rememberOwnMemorialPageId(user?.memorialPageId ?? null);
        sendClientState({
          type: 'UPDATE',
          slice: 'nav',
          value: { ...latestNav.current, isLogged: user !== null },
        });
      });
      const actor = runtime.startAuthSession();
      // A stored user id that is not a string logs out at start.
      if (storedUserIdIsInvalid(localStorage.getItem(PERSIST_ROOT_KEY))) {
        actor.send({ type: 'SIGN_OUT' });
      }
      const firstAnswer = answered(actor.getSnapshot())
        ? undefined
        : actor.subscribe((snapshot) => {
            if (answered(snapshot)) firstAnswer?.unsubscribe();
          });
      connected(runtime.httpSessionOf(actor, goToLogin));
      stop = () => {
        firstAnswer?.unsubscribe();
        disconnectUser();
        actor.stop();
      };
      const session = { runtime, actor };
      setLive(session);
      started.resolve(session);
    });
    return () => {
      cancelled = true;
      disconnectHttp();
      stop();
    };
  }, [started, sendClientState]);

  const subscribe = useMemo(() => actorSubscription(live?.actor), [live]);
  const liveStatus = useSyncExternalStore<SessionStatus>(
    subscribe,
    () => (live ? statusOf(live.actor.getSnapshot()) : 'loading'),
    () => 'loading',
  );
  const liveUser = useSyncExternalStore(
    subscribe,
    () => live?.actor.getSnapshot().context.session?.user ?? null,
    () => null,
  );
  // The session's first answer redraws the whole app (the frame learns who is there): that
  // redraw is deferred, so that React renders it in slices instead of one long task (a store
  // update renders at once). Only while the deferred value still says "loading": every later
  // change (sign-in, sign-out) reaches the app as it happens.
  const deferredStatus = useDeferredValue(liveStatus);
  const deferredUser = useDeferredValue(liveUser);
  const firstAnswerPending = deferredStatus === 'loading' && liveStatus !== 'loading';
  const status = firstAnswerPending ? deferredStatus : liveStatus;
  const user = firstAnswerPending ? deferredUser : liveUser;

  const value = useMemo<SessionValue>(() => {
    /** The running session: at once, or once its chunk is in (an action sent that early). */
    const running = async () => live ?? started.promise;
    return {
      status,
      user,
      accessToken: () => live?.actor.getSnapshot().context.session?.accessToken,
      update: async (data) => {
        const { actor } = await running();
        return new Promise<void>((resolve, reject) => {
          const requestId = (nextUpdateId.current += 1);
          const updated = actor.on('updated', (event) => {
            if (event.requestId !== requestId) return;
            updated.unsubscribe();
            failed.unsubscribe();
            resolve();
          });
          const failed = actor.on('updateFailed', (event) => {
            if (event.requestId !== requestId) return;
            updated.unsubscribe();
            failed.unsubscribe();
            reject(event.error instanceof Error ? event.error : new Error(String(event.error)));
          });
          actor.send({ type: 'UPDATE', requestId, data });
        });
      },
      signIn: async (credentials) => {
        const { actor, runtime } = await running();
        const result = await runtime.browserSessionApi.signInWithCredentials(
          credentials,
          window.location.pathname,
        );
        if (result.ok) {
          actor.send({ type: 'SIGNED_IN' });
          await runtime.whenSession(actor, isSettled);
        }
        return result;
      },
      activate: async (link) => {
        const { actor, runtime } = await running();
        await runtime.browserSessionApi.signInWithActivation(link, window.location.pathname);
        actor.send({ type: 'SIGNED_IN' });
        await runtime.whenSession(actor, isSettled);
      },
      signOut: async () => {
        const { actor, runtime } = await running();
        actor.send({ type: 'SIGN_OUT' });
        await runtime.whenSession(actor, (snapshot) =>
          snapshot.matches({ unauthenticated: 'idle' }),
        );
      },
    };
  }, [live, started, status, user]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
