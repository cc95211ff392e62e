import { expect } from 'vitest';
import {
  unsavedChangesGuardMachine,
  type NavigationTarget,
} from '../../src/machines/unsavedChangesGuard';
import { unsavedChangesGuardEvents } from './flowEvents';
import { describeModel } from './modelTest';

/** The target each leaving action was run with, newest last. */
const departures: { action: string; target: NavigationTarget | null }[] = [];
const recordDeparture =
  (action: string) =>
  ({ context }: { context: { target: NavigationTarget | null } }) =>
    void departures.push({ action, target: context.target });

const LEAVING_ACTIONS = ['proceedNavigation', 'loadTargetFully'];

describeModel('unsavedChangesGuard', {
  machine: unsavedChangesGuardMachine.provide({
    actions: {
      proceedNavigation: recordDeparture('proceedNavigation'),
      loadTargetFully: recordDeparture('loadTargetFully'),
    },
  }),
  events: unsavedChangesGuardEvents,
  states: {
    clean: (snapshot, step) => {
      expect(snapshot.context.target).toBeNull();
      const leaving = step.actions.filter((action) => LEAVING_ACTIONS.includes(action));
      if (leaving.length === 0) {
        expect(step.emitted).toEqual([]);
        return;
      }
      // Confirmed: the dialog closes and the page is left exactly one way, by the target's kind.
      expect(step.event?.type).toBe('CONFIRM');
      expect(step.emitted).toEqual([{ type: 'unsavedWarning.close' }]);
      expect(leaving).toHaveLength(1);
      const departure = departures.at(-1)!;
      expect(departure.action).toBe(leaving[0]);
      expect(departure.action).toBe(
        departure.target?.isHashUrl ? 'loadTargetFully' : 'proceedNavigation',
      );
    },
    dirty: (snapshot, step) => {
      expect(snapshot.context.target).toBeNull();
      expect(step.actions.filter((action) => LEAVING_ACTIONS.includes(action))).toEqual([]);
      if (step.event?.type === 'CANCEL' && step.emitted.length > 0) {
        // Cancelled: the dialog closes, the blocked navigation is dropped, the form stays.
        expect(step.emitted).toEqual([{ type: 'unsavedWarning.close' }]);
        expect(step.actions).toContain('stayOnPage');
      } else {
        expect(step.emitted).toEqual([]);
        expect(step.actions).not.toContain('stayOnPage');
      }
    },
    warning: (snapshot, step) => {
      expect(snapshot.context.target).not.toBeNull();
      expect(step.actions.filter((action) => LEAVING_ACTIONS.includes(action))).toEqual([]);
      if (step.emitted.length > 0) {
        // Leaving with unsaved changes was held back and the warning opened for that target.
        expect(step.event).toEqual({ type: 'NAVIGATE', target: snapshot.context.target });
        expect(step.emitted).toEqual([
          { type: 'unsavedWarning.open', target: snapshot.context.target },
        ]);
      } else {
        // While the dialog asks, further attempts and form events change nothing.
        expect(step.actions).toEqual([]);
      }
    },
  },
});
