import { expect } from 'vitest';
import { integrationLinkMachine } from '../../src/machines/integrationLink';
import { describeModel } from './modelTest';

const linkedElsewhere = Object.assign(new Error('409'), { code: 'fpos_user_linked_elsewhere' });
const offline = new Error('offline');
/** A code that is not one of the API's (those are snake_case) is not shown as one. */
const foreignCode = Object.assign(new Error('reset'), { code: 'socket-hang-up' });

/** The code the member is shown for each refusal of the link. */
const linkErrorCode = new Map<unknown, string>([
  [linkedElsewhere, 'fpos_user_linked_elsewhere'],
  [offline, 'link_failed'],
  [foreignCode, 'link_failed'],
  // A rejection that carries nothing.
  [undefined, 'link_failed'],
]);

describeModel('integrationLink', {
  machine: integrationLinkMachine,
  events: [
    { type: 'OPEN', clientId: 'funeral-co', fposUserId: 'F-1001' },
    { type: 'OPEN', clientId: 'funeral-co', fposUserId: null },
    { type: 'CONSENT' },
    { type: 'DECLINE' },
    { type: 'UNLINK' },
    { type: 'xstate.done.actor.link', output: undefined },
    ...[...linkErrorCode.keys()].map((error) => ({ type: 'xstate.error.actor.link', error })),
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
        expect(snapshot.context.error).toBe(linkErrorCode.get(step.event.error));
    },
    linking: (snapshot, step) => {
      expect(Object.keys(snapshot.children)).toEqual(['link']);
      if (step.event?.type === 'CONSENT' && step.transitions > 0)
        expect(step.invoked).toEqual([
          { src: 'link', input: { clientId: 'funeral-co', fposUserId: 'F-1001' } },
        ]);
    },
    linked: (snapshot, step) => {
      if (step.event?.type === 'xstate.error.actor.unlink')
        expect(snapshot.context.error).toBe('unlink_failed');
      if (step.event?.type === 'xstate.done.actor.link') expect(snapshot.context.error).toBeNull();
    },
    unlinking: (snapshot, step) => {
      expect(Object.keys(snapshot.children)).toEqual(['unlink']);
      if (step.event?.type === 'UNLINK' && step.transitions > 0)
        expect(step.invoked).toEqual([{ src: 'unlink', input: { clientId: 'funeral-co' } }]);
    },
    unlinked: (snapshot) => expect(snapshot.status).toBe('done'),
    declined: (snapshot) => expect(snapshot.status).toBe('done'),
  },
});
