import { useMemo, useSyncExternalStore } from 'react';
import { actorSubscription } from '../../lib/actorSubscription';
import { usePetAdminActor, type PetAdminActor } from './clientState';

export interface PetAdminSettingControls {
  /** The pet page whose setting is active in this browser, or null. */
  pendingPetPageId: string | null;
  /** Starts the 24-hour setting for the pet page a pet-admin link names. */
  set(targetMemorialPageEncodedId: string): void;
  /** A registration in pet mode has taken the setting (the server redeems it at activation). */
  complete(): void;
}

/** The chart says what is pending: `active` alone, so an expired setting never counts. */
const pendingOf = (actor: PetAdminActor | undefined) => {
  const snapshot = actor?.getSnapshot();
  return snapshot?.matches('active') ? snapshot.context.targetMemorialPageEncodedId : null;
};

/** The page's pet-admin setting (started with the client state): what is pending, its events. */
export function usePetAdminSetting(): PetAdminSettingControls {
  const actor = usePetAdminActor();
  const subscribe = useMemo(() => actorSubscription(actor), [actor]);
  const pendingPetPageId = useSyncExternalStore(
    subscribe,
    () => pendingOf(actor),
    () => null,
  );
  return {
    pendingPetPageId,
    set: (targetMemorialPageEncodedId) =>
      actor?.send({ type: 'SET', targetMemorialPageEncodedId, at: Date.now() }),
    complete: () => actor?.send({ type: 'COMPLETE' }),
  };
}
