import { describe, expect, it } from 'vitest';
import {
  RESTORE_TIMEOUT_MS,
  clientStateMachine,
  initialSlices,
  sameSliceValue,
  type ClientSlices,
} from '../../src/machines/clientState';
import { describeModel } from './modelTest';

const restoredUser = { id: 'u-1', username: 'yamada', memorialPageId: 'm-1', iconUrl: null };
const updatedUnread: ClientSlices['unreadNotification'] = { count: 3 };
/** The same count in a new object: changes nothing. */
const sameUnread: ClientSlices['unreadNotification'] = { count: 3 };

const storageUnavailable = new Error('storage unavailable');
const persisted: ClientSlices[] = [];
let clearedPersisted = 0;
const reported: unknown[] = [];

describeModel('clientState', {
  machine: clientStateMachine.provide({
    actions: {
      persist: (_, { slices }) => void persisted.push(slices),
      reportRestoreFailure: (_, { error }) => void reported.push(error),
      clearPersisted: () => void (clearedPersisted += 1),
    },
  }),
  events: (snapshot) =>
    [
      { type: 'xstate.done.actor.restorePersisted', output: { user: restoredUser } },
      { type: 'xstate.error.actor.restorePersisted', error: storageUnavailable },
      { type: `xstate.after.${RESTORE_TIMEOUT_MS}.clientState.restoring` },
      // One update per snapshot keeps the graph finite.
      ...(snapshot.context.slices.unreadNotification.count === 0
        ? [{ type: 'UPDATE', slice: 'unreadNotification', value: updatedUnread } as const]
        : [
            { type: 'UPDATE', slice: 'unreadNotification', value: sameUnread } as const,
            // The global RESET, once something differs from the initial slices.
            { type: 'RESET' } as const,
          ]),
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
          expect(reported.at(-1)).toBe(storageUnavailable);
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
            // What is written is the slices with the update in them.
            expect(persisted.at(-1)).toEqual(slices);
            expect(persisted.at(-1)!.unreadNotification).toEqual({ count: 3 });
          }
          break;
        case 'RESET':
          // Every slice back to its initial value, and the persisted state cleared.
          expect(slices).toEqual(initialSlices);
          expect(step.actions).toEqual(['clearPersisted']);
          expect(clearedPersisted).toBeGreaterThan(0);
          break;
        default:
          throw new Error(`ready reached by an unexpected event ${step.event?.type}`);
      }
    },
  },
});

describe('sameSliceValue', () => {
  it('holds the same value and plain objects with the same own values equal', () => {
    expect(sameSliceValue(3, 3)).toBe(true);
    expect(sameSliceValue(null, null)).toBe(true);
    expect(sameSliceValue({ count: 3 }, { count: 3 })).toBe(true);
    expect(sameSliceValue({}, {})).toBe(true);
  });

  it('tells apart different values, kinds and key sets', () => {
    expect(sameSliceValue(3, 4)).toBe(false);
    expect(sameSliceValue(null, {})).toBe(false);
    expect(sameSliceValue({}, null)).toBe(false);
    expect(sameSliceValue(0, {})).toBe(false);
    expect(sameSliceValue({}, 0)).toBe(false);
    expect(sameSliceValue({ count: 3 }, { count: 4 })).toBe(false);
    expect(sameSliceValue({ a: 1, b: 2 }, { a: 1, b: 3 })).toBe(false);
    expect(sameSliceValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    // Only own values are compared, not nested ones.
    expect(sameSliceValue({ nav: { open: true } }, { nav: { open: true } })).toBe(false);
  });
});
