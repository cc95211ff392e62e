import { useActorRef } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { petAdminMachine } from '../../machines/petAdmin';
import { useClientStateSend, useSlice } from './clientState';
import { inspectOption } from './inspector';

export interface PetAdminSettingControls {
  /** Starts the 24-hour setting for the pet page a pet-admin link names. */
  set(targetMemorialPageEncodedId: string): void;
  /** A registration in pet mode has taken the setting (the server redeems it at activation). */
  complete(): void;
}

/**
 * The pet-admin setting (petAdmin chart) on the persisted memorialAdmin slice: restored from
 * it once when the screen opens, written back by the chart's persistSetting action.
 */
export function usePetAdminSetting(): PetAdminSettingControls {
  const setting = useSlice('memorialAdmin');
  const sendClientState = useClientStateSend();
  const [machine] = useState(() =>
    petAdminMachine.provide({
      actions: {
        persistSetting: (_, value) =>
          sendClientState({ type: 'UPDATE', slice: 'memorialAdmin', value }),
      },
    }),
  );
  const actor = useActorRef(machine, inspectOption());
  const [restored] = useState(setting);
  useEffect(() => {
    actor.send({ type: 'RESTORED', setting: restored, at: Date.now() });
  }, [actor, restored]);
  return useMemo(
    () => ({
      set: (targetMemorialPageEncodedId) =>
        actor.send({ type: 'SET', targetMemorialPageEncodedId, at: Date.now() }),
      complete: () => actor.send({ type: 'COMPLETE' }),
    }),
    [actor],
  );
}
