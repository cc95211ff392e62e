import { expect } from 'vitest';
import { integrationLinkMachine } from '../../src/machines/integrationLink';
import { describeModel } from './modelTest';

const linkedElsewhere = Object.assign(new Error('409'), { code: 'fpos_user_linked_elsewhere' });

describeModel('integrationLink', {
  machine: integrationLinkMachine,
  events: [
    { type: 'OPEN', clientId: 'funeral-co', fposUserId: 'F-1001' },
    { type: 'OPEN', clientId: 'funeral-co', fposUserId: null },
    { type: 'CONSENT' },
    { type: 'DECLINE' },
    { type: 'UNLINK' },
    { type: 'xstate.done.actor.link', output: undefined },
    { type: 'xstate.error.actor.link', error: linkedElsewhere },
    { type: 'xstate.done.actor.unlink', output: undefined },
    { type: 'xstate.error.actor.unlink', error: new Error('offline') },
  ] as never,
  states: {
    opening: (snapshot) => expect(snapshot.context.clientId).toBe(''),
    invalid: (snapshot) => {
      expect(snapshot.context.fposUserId).toBe('');
      expect(snapshot.status).toBe('done');
    },
    consenting: (snapshot, step) => {
      expect(snapshot.context).toMatchObject({ clientId: 'funeral-co', fposUserId: 'F-1001' });
      // The refusal is worded until the member acts again.
      if (step.event?.type === 'xstate.error.actor.link')
        expect(snapshot.context.error).toBe('fpos_user_linked_elsewhere');
    },
    linking: (snapshot) => {
      expect(Object.keys(snapshot.children)).toEqual(['link']);
    },
    linked: (snapshot, step) => {
      if (step.event?.type === 'xstate.error.actor.unlink')
        expect(snapshot.context.error).toBe('unlink_failed');
      if (step.event?.type === 'xstate.done.actor.link') expect(snapshot.context.error).toBeNull();
    },
    unlinking: (snapshot) => {
      expect(Object.keys(snapshot.children)).toEqual(['unlink']);
    },
    unlinked: (snapshot) => expect(snapshot.status).toBe('done'),
    declined: (snapshot) => expect(snapshot.status).toBe('done'),
  },
});
