import { expect } from 'vitest';
import {
  timecapsuleListsMachine,
  type TimecapsuleListName,
  type TimecapsuleListsContext,
} from '../../src/machines/timecapsuleLists';
import { describeModel, type StepInfo } from './modelTest';
import { ownActions } from './navigationSupport';

const reports: TimecapsuleListName[] = [];
const machine = timecapsuleListsMachine.provide({
  actions: { reportLoadFailure: (_, { list }) => void reports.push(list) },
});

const ACTORS = {
  admin: 'loadAdminLetters',
  unsent: 'loadUnsentLetters',
  received: 'loadReceivedLetters',
} as const;
const LETTER = { timeCapsuleLetterId: 'letter-1', title: 'title' };

type Snapshot = { context: TimecapsuleListsContext; children: Record<string, unknown> };

/** The step was this list's load ending (done or error). */
const endedHere = (step: StepInfo, list: TimecapsuleListName, outcome: 'done' | 'error') =>
  step.event?.type === `xstate.${outcome}.actor.${ACTORS[list]}`;

/** Assertions of one list's three states; every list behaves alike and on its own. */
function listStates(list: TimecapsuleListName) {
  return {
    [`${list}.loading`]: (snapshot: Snapshot) => {
      expect(snapshot.context[list].error).toBe(false);
      expect(Object.keys(snapshot.children)).toContain(ACTORS[list]);
    },
    [`${list}.loaded`]: (snapshot: Snapshot, step: StepInfo) => {
      expect(snapshot.context[list].error).toBe(false);
      expect(Object.keys(snapshot.children)).not.toContain(ACTORS[list]);
      if (endedHere(step, list, 'done'))
        expect(snapshot.context[list].letters).toEqual(
          (step.event as unknown as { output: unknown }).output,
        );
    },
    [`${list}.failed`]: (snapshot: Snapshot, step: StepInfo) => {
      expect(snapshot.context[list].error).toBe(true);
      expect(Object.keys(snapshot.children)).not.toContain(ACTORS[list]);
      if (endedHere(step, list, 'error')) {
        expect(ownActions(step.actions)).toEqual(['reportLoadFailure']);
        expect(reports.at(-1)).toBe(list);
      }
    },
  };
}

describeModel('timecapsuleLists', {
  machine,
  events: [
    { type: 'RELOAD' },
    ...(['admin', 'unsent', 'received'] as const).flatMap((list) => [
      { type: 'RETRY', list },
      { type: `xstate.done.actor.${ACTORS[list]}`, output: [] },
      { type: `xstate.done.actor.${ACTORS[list]}`, output: [LETTER] },
      { type: `xstate.error.actor.${ACTORS[list]}`, error: new Error('offline') },
    ]),
  ] as never,
  // The three lists' states are what matters; the letters are checked where they arrive.
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  states: {
    ...listStates('admin'),
    ...listStates('unsent'),
    ...listStates('received'),
  },
});
