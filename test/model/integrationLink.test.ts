import { describe, expect, it } from 'vitest';
import { integrationLinkMachine, linkRequestOf } from '../../src/machines/integrationLink';
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

/** The link an integration sends the member to, with its proof (docs/integrations.md). */
const asked = {
  clientId: 'funeral-co',
  fposUserId: 'F-1001',
  expires: 1795000000,
  signature: 'a1'.repeat(32),
};

const query = { ...asked, expires: String(asked.expires) };

describe('the link’s query', () => {
  it('is a request with both ids and a well-formed proof', () => {
    expect(linkRequestOf(query)).toEqual(asked);
  });

  it('is nothing when an id or the proof is missing or malformed', () => {
    const short = [
      { ...query, clientId: null },
      { ...query, fposUserId: '' },
      { ...query, signature: null },
      { ...query, signature: 'A1'.repeat(32) },
      { ...query, signature: 'a1'.repeat(31) },
      { ...query, expires: null },
      { ...query, expires: '17950e5' },
      { ...query, expires: '-1' },
      { ...query, expires: '0' },
    ];
    for (const wrong of short) expect(linkRequestOf(wrong), JSON.stringify(wrong)).toBeNull();
  });
});

describeModel('integrationLink', {
  machine: integrationLinkMachine,
  events: [
    { type: 'OPEN', request: linkRequestOf(query) },
    { type: 'OPEN', request: null },
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
      expect(snapshot.context).toMatchObject({ fposUserId: '', signature: '' });
      expect(snapshot.status).toBe('done');
    },
    consenting: (snapshot, step) => {
      expect(snapshot.context).toMatchObject(asked);
      // The refusal is worded until the member acts again.
      if (step.event?.type === 'xstate.error.actor.link')
        expect(snapshot.context.error).toBe(linkErrorCode.get(step.event.error));
    },
    linking: (snapshot, step) => {
      expect(Object.keys(snapshot.children)).toEqual(['link']);
      if (step.event?.type === 'CONSENT' && step.transitions > 0)
        expect(step.invoked).toEqual([{ src: 'link', input: asked }]);
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
