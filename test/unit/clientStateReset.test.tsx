/**
 * The global RESET of the page's client state (the real actor, started as the page starts
 * it, on the browser's localStorage): every slice back to its initial value, the persisted
 * state under `persist:shinobu` cleared, and a pending pet-admin setting ended.
 */
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, expect, it } from 'vitest';
import { initialSlices } from '../../src/machines/clientState';
import {
  ClientStateActorProvider,
  resetClientState,
  startClientState,
  usePetAdminActor,
} from '../../src/services/clientState/clientState';
import { PERSIST_ROOT_KEY } from '../../src/services/persistence/clientStorage';

afterEach(() => localStorage.clear());

it('returns every slice to its initial value, clears persist:shinobu and ends the pet-admin setting', async () => {
  localStorage.setItem(
    PERSIST_ROOT_KEY,
    JSON.stringify({
      user: { id: 'u-1', username: 'yamada', memorialPageId: 'm-1', iconUrl: null },
      memorialAdmin: {
        targetMemorialPageEncodedId: 'pet-page',
        expiresAt: Date.now() + 3600_000,
        completed: false,
      },
      unreadNotification: { count: 4 },
    }),
  );
  const clientState = await startClientState();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ClientStateActorProvider actor={clientState}>{children}</ClientStateActorProvider>
  );
  const petAdminBefore = renderHook(() => usePetAdminActor(), { wrapper }).result.current!;
  expect(petAdminBefore.getSnapshot().matches('active')).toBe(true);
  expect(clientState.getSnapshot().context.slices.unreadNotification).toEqual({ count: 4 });

  resetClientState(clientState);

  expect(clientState.getSnapshot().context.slices).toEqual(initialSlices);
  expect(localStorage.getItem(PERSIST_ROOT_KEY)).toBeNull();
  const petAdminAfter = renderHook(() => usePetAdminActor(), { wrapper }).result.current!;
  expect(petAdminAfter.getSnapshot().matches('inactive')).toBe(true);
  expect(petAdminAfter.getSnapshot().context.targetMemorialPageEncodedId).toBeNull();
  clientState.stop();
});
