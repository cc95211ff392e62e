import { expect } from 'vitest';
import {
  endingnoteNavigationMachine,
  type EndingnoteNavigationEvent,
} from '../../src/machines/endingnoteNavigation';
import { describeModel } from './modelTest';
import { ownActions } from './navigationSupport';

const navigations: string[] = [];
const machine = endingnoteNavigationMachine.provide({
  actions: { navigate: (_, { to }) => void navigations.push(to) },
});

describeModel('endingnoteNavigation', {
  machine,
  events: [
    { type: 'OPEN', userId: 'user-1' },
    { type: 'OPEN', userId: null },
  ],
  states: {
    idle: (_snapshot, { event, actions }) => {
      if (!event) return expect(ownActions(actions)).toEqual([]);
      const { userId } = event as unknown as EndingnoteNavigationEvent;
      if (userId === null) {
        expect(ownActions(actions)).toEqual(['goToLogin']);
      } else {
        expect(ownActions(actions)).toEqual(['navigate']);
        expect(navigations.at(-1)).toBe('/endingnote/user-1');
      }
    },
  },
});
