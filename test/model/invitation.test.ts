import { expect } from 'vitest';
import { invitationMachine, type InvitationLink } from '../../src/machines/invitation';
import { describeModel } from './modelTest';
import { ownActions } from './navigationSupport';

const link = (fields: Partial<InvitationLink>) =>
  ({
    type: 'LINK',
    shareToken: 'share-token',
    invitingUserId: 'inviter',
    setAdmin: false,
    ...fields,
  }) as const;

const done = (id: string, output?: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('404') });

const entered = (event: { type: string } | undefined, ...types: string[]) =>
  event !== undefined && types.includes(event.type);

describeModel('invitation', {
  machine: invitationMachine,
  input: { userId: null },
  events: [
    link({ setAdmin: true }),
    link({ setAdmin: false }),
    link({ shareToken: null }),
    link({ invitingUserId: null }),
    { type: 'LOGGED_IN', userId: 'invitee' },
    { type: 'RESET' },
    done('validateShareToken', { isValid: true }),
    done('validateShareToken', { isValid: false }),
    failed('validateShareToken'),
    done('connectToInvitingUser'),
    failed('connectToInvitingUser'),
    done('resolveMemorialPage', 'inviters-page'),
    failed('resolveMemorialPage'),
    done('addMemorialPageAdmin'),
    failed('addMemorialPageAdmin'),
    done('expireShareToken'),
    failed('expireShareToken'),
  ] as never,
  states: {
    absent: ({ context }, { event, actions }) => {
      // Without both halves of the link there is no invitation at all.
      expect(context.shareToken).toBeNull();
      expect(context.invitingUserId).toBeNull();
      expect(context.error).toBeNull();
      if (event?.type === 'RESET') expect(ownActions(actions)).toContain('clearInvitation');
    },
    validating: ({ context, children }) => {
      expect(context.shareToken).toBe('share-token');
      expect(context.invitingUserId).toBe('inviter');
      expect(Object.keys(children)).toEqual(['validateShareToken']);
    },
    awaitingLogin: ({ context }) => {
      // A valid invitation is kept while the visitor logs in or registers.
      expect(context.userId).toBeNull();
      expect(context.shareToken).toBe('share-token');
    },
    connecting: ({ context, children }) => {
      expect(context.userId).toBe('invitee');
      expect(Object.keys(children)).toEqual(['connectToInvitingUser']);
    },
    resolvingPage: ({ context }) => {
      expect(context.setAdmin).toBe(true);
    },
    addingAdmin: ({ context }) => {
      expect(context.setAdmin).toBe(true);
      expect(context.memorialPageId).toBe('inviters-page');
    },
    expiring: ({ context }, { event }) => {
      if (entered(event, 'xstate.done.actor.connectToInvitingUser')) {
        expect(context.setAdmin).toBe(false);
      }
      if (context.setAdmin) expect(context.memorialPageId).toBe('inviters-page');
    },
    accepted: ({ context }, { event, actions }) => {
      expect(context.error).toBeNull();
      // With setAdmin the invitee became an admin of the inviter's page on the way.
      if (context.setAdmin) expect(context.memorialPageId).toBe('inviters-page');
      if (entered(event, 'xstate.done.actor.expireShareToken')) {
        expect(ownActions(actions)).toEqual(['clearInvitation']);
      }
    },
    invalid: ({ context }, { event, actions }) => {
      expect(context.error).toBe('invalid-invitation');
      if (event?.type.startsWith('xstate.')) {
        expect(ownActions(actions)).toEqual(['clearInvitation']);
      }
    },
  },
});
