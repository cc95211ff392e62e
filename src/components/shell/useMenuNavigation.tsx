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
import { useClientStateSend, useSlice } from '../../services/clientState/clientState';
import type { NavigationRule } from './menu';
import type { NavigationMachines } from './navigationMachines';
import type { NavigationActors, RunningNavigation } from './NavigationActors';
import type { ShellSession } from './shellSession';

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

/**
 * The statecharts' code and the component that runs them (with @xstate/react), which the
 * first render does not need, in a chunk of their own.
 */
const loadNavigationMachines = () => import('./NavigationActors');

/**
 * Gives the navigation statecharts and the endingnote entry their effects (the router, the
 * client state and the API) and keeps them running for the rest of the visit, so that a
 * member's unsent letters are loaded before the time capsule entry is clicked. Their code is
 * loaded in a task after the first render once a member is signed in (evaluated with the
 * app's own, it lengthened the longest task of start-up), and for a visitor only when they
 * click an entry: a reader of a page never needs them. An entry clicked before they run is
 * opened once they do.
 */
export function MenuNavigationProvider({
  session,
  children,
}: {
  session: ShellSession;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const nav = useSlice('nav');
  const send = useClientStateSend();
  // The machines are created once; their effects, which run on events only, read the latest
  // router and client state through this ref.
  const latest = useRef({ navigate, nav, send });
  useEffect(() => {
    latest.current = { navigate, nav, send };
  });
  const [loaded, setLoaded] = useState<{
    machines: NavigationMachines;
    Actors: typeof NavigationActors;
  }>();
  const [clicked, setClicked] = useState(false);
  const needed = session.status === 'authenticated' || clicked;
  useEffect(() => {
    if (!needed || loaded) return;
    let mounted = true;
    void loadNavigationMachines().then(({ provideNavigationMachines, NavigationActors }) => {
      if (!mounted) return;
      setLoaded({
        Actors: NavigationActors,
        machines: provideNavigationMachines({
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
        }),
      });
    });
    return () => {
      mounted = false;
    };
  }, [needed, loaded]);

  const running = useRef<RunningNavigation | undefined>(undefined);
  const clickedBeforeRunning = useRef<NavigationRule | undefined>(undefined);
  const open = useCallback<OpenRule>((rule) => {
    if (running.current) running.current.open(rule);
    else {
      clickedBeforeRunning.current = rule;
      setClicked(true);
    }
  }, []);
  // Before the machines run there are no letters read yet to be stale.
  const lettersChanged = useCallback(() => running.current?.lettersChanged(), []);
  const started = useCallback((navigation: RunningNavigation | undefined) => {
    running.current = navigation;
    const clicked = clickedBeforeRunning.current;
    clickedBeforeRunning.current = undefined;
    if (navigation && clicked) navigation.open(clicked);
  }, []);
  return (
    <MenuNavigationContext.Provider value={open}>
      <LettersChangedContext.Provider value={lettersChanged}>
        {loaded && <loaded.Actors machines={loaded.machines} session={session} started={started} />}
        {children}
      </LettersChangedContext.Provider>
    </MenuNavigationContext.Provider>
  );
}
