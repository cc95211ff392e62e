import { useActorRef } from '@xstate/react';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import { endingnoteNavigationMachine } from '../../machines/endingnoteNavigation';
import { memoryNavigationMachine } from '../../machines/memoryNavigation';
import { timecapsuleNavigationMachine } from '../../machines/timecapsuleNavigation';
import { useClientStateSend, useSlice } from '../../services/clientState';
import type { ApiGet } from '../ui/apiGet';
import type { NavigationRule } from './menu';
import { loadMemorialPageContents, loadUnsentLetters } from './navigationApi';
import type { ShellSession } from './session';

type OpenRule = (rule: NavigationRule) => void;

const MenuNavigationContext = createContext<OpenRule | undefined>(undefined);

/** Runs a navigation rule of a `rule` menu entry. */
export function useOpenRule(): OpenRule {
  const open = useContext(MenuNavigationContext);
  if (!open) throw new Error('useOpenRule outside MenuNavigationProvider');
  return open;
}

const LettersChangedContext = createContext<() => void>(() => undefined);

/**
 * Tells the time capsule menu entry that the member's letters changed (written, edited or
 * deleted), so that it reads them again before its next click. Outside the shell (component
 * tests) there is no menu entry, and nothing to tell.
 */
export function useTimecapsuleLettersChanged(): () => void {
  return useContext(LettersChangedContext);
}

/** What each rule opens after login when it sent a logged-out visitor there. */
const AFTER_LOGIN: Record<NavigationRule, string> = {
  memory: '/memory/top/me',
  endingnote: '/dashboard',
  timecapsule: '/timecapsule',
};

interface NavigationEffects {
  navigate: (to: string) => void;
  goToLogin: (rule: NavigationRule) => void;
  apiGet: ApiGet;
}

const reportLoadFailure = (_: unknown, { error }: { error: unknown }) =>
  console.error('menu navigation: loading failed', error);

/** The three navigation statecharts with their effects. */
function provideNavigationMachines(effects: NavigationEffects) {
  const navigate = (_: unknown, { to }: { to: string }) => effects.navigate(to);
  return {
    memory: memoryNavigationMachine.provide({
      actors: {
        loadMemorialPageContents: fromPromise(({ input }) =>
          loadMemorialPageContents(effects.apiGet, input.memorialPageId),
        ),
      },
      actions: { navigate, goToLogin: () => effects.goToLogin('memory'), reportLoadFailure },
    }),
    endingnote: endingnoteNavigationMachine.provide({
      actions: { navigate, goToLogin: () => effects.goToLogin('endingnote') },
    }),
    timecapsule: timecapsuleNavigationMachine.provide({
      actors: { loadUnsentLetters: fromPromise(() => loadUnsentLetters(effects.apiGet)) },
      actions: { navigate, goToLogin: () => effects.goToLogin('timecapsule'), reportLoadFailure },
    }),
  };
}

/**
 * Gives the three navigation statecharts their effects (the router, the client state and
 * the API) and keeps them running for the whole visit, so that the unsent letters are
 * loaded before the time capsule entry is clicked.
 */
export function MenuNavigationProvider({
  session,
  apiGet,
  children,
}: {
  session: ShellSession;
  apiGet: ApiGet;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const nav = useSlice('nav');
  const send = useClientStateSend();
  // The machines are created once; their effects, which run on events only, read the latest
  // router, client state and API reader through this ref.
  const latest = useRef({ navigate, nav, send, apiGet });
  useEffect(() => {
    latest.current = { navigate, nav, send, apiGet };
  });
  // eslint-disable-next-line react-hooks/refs -- read when an event runs an effect, not during render
  const [machines] = useState(() =>
    provideNavigationMachines({
      navigate: (to) => void latest.current.navigate(to),
      goToLogin: (rule) => {
        const current = latest.current;
        current.send({
          type: 'UPDATE',
          slice: 'nav',
          value: { ...current.nav, postLoginRedirectUrl: AFTER_LOGIN[rule] },
        });
        void current.navigate('/login');
      },
      apiGet: (path) => latest.current.apiGet(path),
    }),
  );
  const memory = useActorRef(machines.memory);
  const endingnote = useActorRef(machines.endingnote);
  const timecapsule = useActorRef(machines.timecapsule);

  const loggedIn = session.status === 'authenticated' && session.user !== null;
  useEffect(() => {
    if (session.status === 'loading') return;
    timecapsule.send({ type: loggedIn ? 'SIGNED_IN' : 'SIGNED_OUT' });
  }, [timecapsule, session.status, loggedIn]);

  const user = session.user;
  const open = useCallback<OpenRule>(
    (rule) => {
      if (rule === 'timecapsule') {
        // Letters written since the last look change the answer: read them again after.
        timecapsule.send({ type: 'OPEN' });
        timecapsule.send({ type: 'RELOAD' });
      } else if (rule === 'endingnote') {
        endingnote.send({ type: 'OPEN', userId: loggedIn ? (user?.id ?? null) : null });
      } else {
        memory.send({
          type: 'OPEN',
          loggedIn,
          hasToken: session.accessToken() !== undefined,
          memorialPageId: user?.memorialPageId ?? null,
        });
      }
    },
    [memory, endingnote, timecapsule, loggedIn, user, session],
  );
  const lettersChanged = useCallback(() => timecapsule.send({ type: 'RELOAD' }), [timecapsule]);
  return (
    <MenuNavigationContext.Provider value={open}>
      <LettersChangedContext.Provider value={lettersChanged}>
        {children}
      </LettersChangedContext.Provider>
    </MenuNavigationContext.Provider>
  );
}
