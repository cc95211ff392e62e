import { expect } from 'vitest';
import {
  RESTORE_TIMEOUT_MS,
  clientStateMachine,
  initialSlices,
  type ClientSlices,
} from '../../src/machines/clientState';
import { describeModel } from './modelTest';

const restoredUser = { id: 'u-1', username: 'yamada', memorialPageId: 'm-1', iconUrl: null };
const updatedUnread: ClientSlices['unreadNotification'] = { count: 3 };
/** The same count in a new object: changes nothing. */
const sameUnread: ClientSlices['unreadNotification'] = { count: 3 };

describeModel('clientState', {
  machine: clientStateMachine,
  events: (snapshot) =>
    [
      { type: 'xstate.done.actor.restorePersisted', output: { user: restoredUser } },
      { type: 'xstate.error.actor.restorePersisted', error: new Error('storage unavailable') },
      { type: `xstate.after.${RESTORE_TIMEOUT_MS}.clientState.restoring` },
      // One update per snapshot keeps the graph finite.
      ...(snapshot.context.slices.unreadNotification.count === 0
        ? [{ type: 'UPDATE', slice: 'unreadNotification', value: updatedUnread } as const]
        : [{ type: 'UPDATE', slice: 'unreadNotification', value: sameUnread } as const]),
    ] as never,
  states: {
    restoring: (snapshot) => {
      expect(snapshot.context.slices).toEqual(initialSlices);
    },
    ready: (snapshot, step) => {
      const { slices, restoreTimedOut } = snapshot.context;
      switch (step.event?.type) {
        case 'xstate.done.actor.restorePersisted':
          expect(slices.user).toEqual(restoredUser);
          expect(slices.nav).toEqual(initialSlices.nav);
          break;
        case 'xstate.error.actor.restorePersisted':
          expect(step.actions).toContain('reportRestoreFailure');
          expect(slices).toEqual(initialSlices);
          break;
        case `xstate.after.${RESTORE_TIMEOUT_MS}.clientState.restoring`:
          expect(restoreTimedOut).toBe(true);
          expect(slices).toEqual(initialSlices);
          break;
        case 'UPDATE':
          if ((step.event as { value?: unknown }).value === sameUnread) {
            // Nothing changed: the slice keeps its object and nothing is persisted.
            expect(slices.unreadNotification).toBe(updatedUnread);
            expect(step.actions).not.toContain('persist');
          } else {
            expect(slices.unreadNotification).toEqual(updatedUnread);
            expect(step.actions).toContain('persist');
          }
          break;
        default:
          throw new Error(`ready reached by an unexpected event ${step.event?.type}`);
      }
    },
  },
});
