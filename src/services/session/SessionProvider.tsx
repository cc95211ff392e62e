import { useActorRef, useSelector } from '@xstate/react';
import { useDeferredValue, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useClientStateSend, useSlice } from '../clientState/clientState';
import { PERSIST_ROOT_KEY } from '../persistence/clientStorage';
import type { SessionUser } from '../../../contract/sessionLayer';
import { connectHttpSession } from '../http/connection';
import { browserAuthSessionMachine, connectUserSync } from './browserSession';
import { browserSessionApi } from './owedSignOut';
import { httpSessionOf, whenSession, type AuthSessionActor } from './liveSession';
import { SessionContext, type SessionStatus, type SessionValue } from './SessionContext';
import { rememberOwnMemorialPageId } from '../persistence/firstVisit';
import { storedUserIdIsInvalid } from './storedUser';
import { isMemberOnlyPath, takeReturnTo } from '../../../contract/pages/memberOnly';
import { inspectOption } from '../clientState/inspector';

const isSettled = (snapshot: ReturnType<AuthSessionActor['getSnapshot']>) =>
  snapshot.matches({ authenticated: 'idle' }) || snapshot.matches({ unauthenticated: 'idle' });

/**
 * Runs the authSession machine for the app: keeps the `user` and `nav` slices in step with
 * it, connects the HTTP client to it, and offers it through `useSession()`.
 * `navigate` sends the user to /login after an authorisation failure.
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

  const actor = useActorRef(browserAuthSessionMachine(), inspectOption());
  // Tells each update's outcome apart from those of updates sent before it.
  const nextUpdateId = useRef(0);

  useEffect(
    () =>
      connectUserSync((user: SessionUser | null) => {
        sendClientState({ type: 'UPDATE', slice: 'user', value: user });
        rememberOwnMemorialPageId(user?.memorialPageId ?? null);
        sendClientState({
          type: 'UPDATE',
          slice: 'nav',
          value: { ...latestNav.current, isLogged: user !== null },
        });
      }),
    [sendClientState],
  );

  useEffect(() => {
    // A stored user id that is not a string logs out at start.
    if (storedUserIdIsInvalid(localStorage.getItem(PERSIST_ROOT_KEY))) {
      actor.send({ type: 'SIGN_OUT' });
    }
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
    const answered = (snapshot: ReturnType<AuthSessionActor['getSnapshot']>) => {
      if (snapshot.matches('loading')) return false;
      if (snapshot.matches('unauthenticated') && isMemberOnlyPath(window.location.pathname)) {
        goToLogin();
      }
      return true;
    };
    const firstAnswer = answered(actor.getSnapshot())
      ? undefined
      : actor.subscribe((snapshot) => {
          if (answered(snapshot)) firstAnswer?.unsubscribe();
        });
    const disconnect = connectHttpSession(httpSessionOf(actor, goToLogin));
    return () => {
      firstAnswer?.unsubscribe();
      disconnect();
    };
  }, [actor, sendClientState]);

  const liveStatus = useSelector(actor, (snapshot): SessionStatus =>
    snapshot.matches('loading')
      ? 'loading'
      : snapshot.matches('authenticated')
        ? 'authenticated'
        : 'unauthenticated',
  );
  const liveUser = useSelector(actor, (snapshot) => snapshot.context.session?.user ?? null);
  // The session's first answer redraws the whole app (the frame learns who is there): that
  // redraw is deferred, so that React renders it in slices instead of one long task (a store
  // update renders at once). Only while the deferred value still says "loading": every later
  // change (sign-in, sign-out) reaches the app as it happens.
  const deferredStatus = useDeferredValue(liveStatus);
  const deferredUser = useDeferredValue(liveUser);
  const firstAnswerPending = deferredStatus === 'loading' && liveStatus !== 'loading';
  const status = firstAnswerPending ? deferredStatus : liveStatus;
  const user = firstAnswerPending ? deferredUser : liveUser;

  const value = useMemo<SessionValue>(
    () => ({
      status,
      user,
      accessToken: () => actor.getSnapshot().context.session?.accessToken,
      update: (data) =>
        new Promise<void>((resolve, reject) => {
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
        }),
      signIn: async (credentials) => {
        const result = await browserSessionApi.signInWithCredentials(
          credentials,
          window.location.pathname,
        );
        if (result.ok) {
          actor.send({ type: 'SIGNED_IN' });
          await whenSession(actor, isSettled);
        }
        return result;
      },
      activate: async (link) => {
        await browserSessionApi.signInWithActivation(link, window.location.pathname);
        actor.send({ type: 'SIGNED_IN' });
        await whenSession(actor, isSettled);
      },
      signOut: async () => {
        actor.send({ type: 'SIGN_OUT' });
        await whenSession(actor, (snapshot) => snapshot.matches({ unauthenticated: 'idle' }));
      },
    }),
    [actor, status, user],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
