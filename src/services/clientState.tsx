import { useSelector } from '@xstate/react';
import {
  createContext,
  startTransition,
  useContext,
  useEffect,
  useState,
  type ReactNode,
} from 'react';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import {
  clientStateMachine,
  type ClientSlices,
  type ClientStateEvent,
} from '../machines/clientState';
import { devInspector } from './inspector';
import { readPersistedSlices, writePersistedSlices } from './persistence/clientStorage';

/** Made when the provider starts it: `provide` builds the statechart again (start-up work). */
const liveClientStateMachine = () =>
  clientStateMachine.provide({
    actors: { restorePersisted: fromPromise(() => readPersistedSlices()) },
    actions: {
      persist: (_, { slices }) => writePersistedSlices(slices),
      reportRestoreFailure: (_, { error }) =>
        console.error('persisted state could not be restored', error),
    },
  });

type ClientStateActor = ActorRefFrom<typeof clientStateMachine>;

const ClientStateContext = createContext<ClientStateActor | undefined>(undefined);

/** Starts the client-state machine and renders children once the persisted slices are restored. */
export function ClientStateProvider({
  children,
  fallback,
}: {
  children: ReactNode;
  fallback: ReactNode;
}) {
  const [actor, setActor] = useState<ClientStateActor>();
  useEffect(() => {
    let started: ClientStateActor | undefined;
    let cancelled = false;
    void devInspector().then((inspect) => {
      if (cancelled) return;
      started = createActor(liveClientStateMachine(), inspect ? { inspect } : {}).start();
      setActor(started);
    });
    return () => {
      cancelled = true;
      started?.stop();
    };
  }, []);
  const ready = useSelector(actor, (snapshot) => snapshot?.matches('ready') ?? false);
  // The app under this provider is first drawn in a transition, which React renders in short
  // slices with the main thread free in between; a store update such as `ready` would render
  // it all in one long task. The page shows something meanwhile (the fallback, or the server's
  // snapshot of /login), and stays responsive while the app is built (docs/benchmarks.md).
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (ready) startTransition(() => setShown(true));
  }, [ready]);
  if (!actor || !ready || !shown) return <>{fallback}</>;
  return <ClientStateContext.Provider value={actor}>{children}</ClientStateContext.Provider>;
}

/**
 * Offers an already started client-state actor (the build-time render of /login,
 * `src/snapshot/prerender.tsx`, which has no localStorage to restore from).
 */
export function ClientStateActorProvider({
  actor,
  children,
}: {
  actor: ClientStateActor;
  children: ReactNode;
}) {
  return <ClientStateContext.Provider value={actor}>{children}</ClientStateContext.Provider>;
}

function useClientStateActor(): ClientStateActor {
  const actor = useContext(ClientStateContext);
  if (!actor) throw new Error('useClientState outside ClientStateProvider');
  return actor;
}

/** Reads one slice; re-renders only when it changes. */
export function useSlice<K extends keyof ClientSlices>(name: K): ClientSlices[K] {
  return useSelector(useClientStateActor(), (snapshot) => snapshot.context.slices[name]);
}

/** Sends UPDATE to the client state. */
export function useClientStateSend(): (event: ClientStateEvent) => void {
  return useClientStateActor().send;
}
