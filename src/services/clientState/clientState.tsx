import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import {
  createActor,
  fromPromise,
  waitFor,
  type ActorRefFrom,
  type InspectionEvent,
  type Observer,
} from 'xstate';
import { actorSubscription } from '../../lib/actorSubscription';
import {
  clientStateMachine,
  type ClientSlices,
  type ClientStateEvent,
} from '../../machines/clientState';
import { petAdminMachine } from '../../machines/petAdmin';
import {
  clearPersistedSlices,
  readPersistedSlices,
  writePersistedSlices,
} from '../persistence/clientStorage';

/** Made when the provider starts it: `provide` builds the statechart again (start-up work). */
const liveClientStateMachine = () =>
  clientStateMachine.provide({
    actors: { restorePersisted: fromPromise(() => readPersistedSlices()) },
    actions: {
      persist: (_, { slices }) => writePersistedSlices(slices),
      clearPersisted: () => clearPersistedSlices(),
      reportRestoreFailure: (_, { error }) =>
        console.error('persisted state could not be restored', error),
    },
  });

export type ClientStateActor = ActorRefFrom<typeof clientStateMachine>;
export type PetAdminActor = ActorRefFrom<typeof petAdminMachine>;

/** The inspector's option (`inspector.ts`) once it is started; none in production. */
let inspectOption: () => { inspect?: Observer<InspectionEvent> } = () => ({});

/**
 * In development, `?inspect` connects the machines to the Stately inspector (`inspector.ts`);
 * a production build leaves the inspector and its import out.
 */
async function startInspector(): Promise<void> {
  if (!import.meta.env.DEV) return;
  const inspector = await import('./inspector');
  await inspector.devInspector();
  inspectOption = inspector.inspectOption;
}

/** The page's pet-admin actor of each client state (none in the server render). */
const petAdminOf = new WeakMap<ClientStateActor, PetAdminActor>();

/**
 * Starts the page's one pet-admin setting (petAdmin chart) on the restored memorialAdmin
 * slice, written back by the chart's persistSetting action. It lives as long as the client
 * state, so its expiry fires whatever screen is open.
 */
function startPetAdminSetting(clientState: ClientStateActor): void {
  const actor = createActor(
    petAdminMachine.provide({
      actions: {
        persistSetting: (_, value) =>
          clientState.send({ type: 'UPDATE', slice: 'memorialAdmin', value }),
      },
    }),
    inspectOption(),
  ).start();
  actor.send({
    type: 'RESTORED',
    setting: clientState.getSnapshot().context.slices.memorialAdmin,
    at: Date.now(),
  });
  clientState.subscribe({ complete: () => actor.stop() });
  petAdminOf.set(clientState, actor);
}

const ClientStateContext = createContext<ClientStateActor | undefined>(undefined);

/** The client-state actor of the page, started, once its persisted slices are restored. */
export async function startClientState(): Promise<ClientStateActor> {
  await startInspector();
  const actor = createActor(liveClientStateMachine(), inspectOption()).start();
  await waitFor(actor, (snapshot) => snapshot.matches('ready'));
  startPetAdminSetting(actor);
  return actor;
}

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
    void startClientState().then((ready) => {
      started = ready;
      if (cancelled) ready.stop();
      else setActor(ready);
    });
    return () => {
      cancelled = true;
      started?.stop();
    };
  }, []);
  if (!actor) return <>{fallback}</>;
  return <ClientStateContext.Provider value={actor}>{children}</ClientStateContext.Provider>;
}

/**
 * Offers an already started client-state actor: the page's (main.tsx), or the server
 * render's, which has no localStorage to restore from (src/entry-server.tsx).
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

export function useClientStateActor(): ClientStateActor {
  const actor = useContext(ClientStateContext);
  if (!actor) throw new Error('useClientState outside ClientStateProvider');
  return actor;
}

/** The page's pet-admin actor; undefined in the server render, which has none. */
export function usePetAdminActor(): PetAdminActor | undefined {
  return petAdminOf.get(useClientStateActor());
}

/**
 * Reads one slice; re-renders only when it changes. A slice keeps its object until an UPDATE
 * changes it, so React's own store hook reads it without a selector library.
 */
export function useSlice<K extends keyof ClientSlices>(name: K): ClientSlices[K] {
  const actor = useClientStateActor();
  const subscribe = useMemo(() => actorSubscription(actor), [actor]);
  const read = () => actor.getSnapshot().context.slices[name];
  return useSyncExternalStore(subscribe, read, read);
}

/**
 * The global RESET: every slice back to its initial value, the persisted state cleared, and
 * the pet-admin setting ended (its chart starts again from the cleared slice).
 */
export function resetClientState(clientState: ClientStateActor): void {
  clientState.send({ type: 'RESET' });
  petAdminOf.get(clientState)?.stop();
  startPetAdminSetting(clientState);
}

/** The global RESET of the page's client state. */
export function useResetClientState(): () => void {
  const actor = useClientStateActor();
  return useCallback(() => resetClientState(actor), [actor]);
}

/** Sends UPDATE to the client state. */
export function useClientStateSend(): (event: ClientStateEvent) => void {
  return useClientStateActor().send;
}
