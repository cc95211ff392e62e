import { expect } from 'vitest';
import {
  TIMECAPSULE_LIST,
  TIMECAPSULE_START,
  timecapsuleNavigationMachine,
} from '../../src/machines/timecapsuleNavigation';
import { describeModel, type StepInfo } from './modelTest';
import { ownActions } from './navigationSupport';

const navigations: string[] = [];
const machine = timecapsuleNavigationMachine.provide({
  actions: { navigate: (_, { to }) => void navigations.push(to) },
});

function expectOpened(step: StepInfo, to: string) {
  expect(ownActions(step.actions)).toEqual(['navigate']);
  expect(navigations.at(-1)).toBe(to);
}

describeModel('timecapsuleNavigation', {
  machine,
  events: [
    { type: 'SIGNED_IN' },
    { type: 'SIGNED_OUT' },
    { type: 'OPEN' },
    { type: 'RELOAD' },
    { type: 'xstate.done.actor.loadUnsentLetters', output: [] },
    { type: 'xstate.done.actor.loadUnsentLetters', output: [{ id: 'letter-1' }] },
    { type: 'xstate.error.actor.loadUnsentLetters', error: new Error('offline') },
  ] as never,
  states: {
    loggedOut: (snapshot, step) => {
      expect(snapshot.context.unsentLetters).toBe(0);
      expect(ownActions(step.actions)).toEqual(step.event?.type === 'OPEN' ? ['goToLogin'] : []);
    },
    loading: (snapshot, step) => {
      // A click while the letters load does nothing.
      expect(ownActions(step.actions)).toEqual([]);
      expect(Object.keys(snapshot.children)).toEqual(['loadUnsentLetters']);
    },
    ready: (snapshot, step) => {
      if (step.event?.type !== 'OPEN') return expect(ownActions(step.actions)).toEqual([]);
      expectOpened(step, snapshot.context.unsentLetters > 0 ? TIMECAPSULE_LIST : TIMECAPSULE_START);
    },
    failed: (_snapshot, step) => {
      if (step.event?.type === 'OPEN') expectOpened(step, TIMECAPSULE_START);
      else if (step.event?.type === 'xstate.error.actor.loadUnsentLetters')
        expect(ownActions(step.actions)).toEqual(['reportLoadFailure']);
      else expect(ownActions(step.actions)).toEqual([]);
    },
  },
});
