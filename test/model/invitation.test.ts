import { expect } from 'vitest';
import { invitationMachine, type InvitationLink } from '../../src/machines/invitation';
import { toSnakeCase } from '../../src/services/http/casing';
import { describeModel, type InvokedActor, type StepInfo } from './modelTest';
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

/** Every invitation call sends the pair from the link, as the wire has it. */
const credential = { token: 'share-token', inviting_user_id: 'inviter' };
const wire = (actor: InvokedActor) => ({ src: actor.src, input: toSnakeCase(actor.input) });
const startedIn = (path: StepInfo[]) => path.flatMap((step) => step.invoked).map(wire);

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
    absent: ({ context }) => {
      // Without both halves of the link there is no invitation at all.
      expect(context.shareToken).toBeNull();
      expect(context.invitingUserId).toBeNull();
      expect(context.error).toBeNull();
    },
    validating: ({ context, children }, { event, invoked, actions }) => {
      if (event?.type === 'LINK' && actions.includes('rememberLink'))
        expect(invoked).toHaveLength(1);
      expect(invoked.map(wire)).toEqual(
        invoked.length === 0 ? [] : [{ src: 'validateShareToken', input: credential }],
      );
      expect(context.shareToken).toBe('share-token');
      expect(context.invitingUserId).toBe('inviter');
      expect(Object.keys(children)).toEqual(['validateShareToken']);
    },
    awaitingLogin: ({ context }) => {
      // A valid invitation is kept while the visitor logs in or registers.
      expect(context.userId).toBeNull();
      expect(context.shareToken).toBe('share-token');
    },
    connecting: ({ context, children }, { invoked }) => {
      expect(invoked.map(wire)).toEqual(
        invoked.length === 0 ? [] : [{ src: 'connectToInvitingUser', input: credential }],
      );
      expect(context.userId).toBe('invitee');
      expect(Object.keys(children)).toEqual(['connectToInvitingUser']);
    },
    resolvingPage: ({ context }, { invoked }) => {
      expect(invoked.map(wire)).toEqual(
        invoked.length === 0 ? [] : [{ src: 'resolveMemorialPage', input: credential }],
      );
      expect(context.setAdmin).toBe(true);
    },
    addingAdmin: ({ context }, { event, invoked }) => {
      if (event?.type === 'xstate.done.actor.resolveMemorialPage') expect(invoked).toHaveLength(1);
      // The one who accepted becomes an admin of the inviter's page, not the inviter.
      expect(invoked.map(wire)).toEqual(
        invoked.length === 0
          ? []
          : [
              {
                src: 'addMemorialPageAdmin',
                input: { memorial_page_id: 'inviters-page', admin_user_id: 'invitee' },
              },
            ],
      );
      expect(context.setAdmin).toBe(true);
      expect(context.memorialPageId).toBe('inviters-page');
    },
    expiring: ({ context }, { event, invoked }) => {
      if (event?.type.startsWith('xstate.done.actor')) expect(invoked).toHaveLength(1);
      expect(invoked.map(wire)).toEqual(
        invoked.length === 0 ? [] : [{ src: 'expireShareToken', input: credential }],
      );
      if (entered(event, 'xstate.done.actor.connectToInvitingUser')) {
        expect(context.setAdmin).toBe(false);
      }
      if (context.setAdmin) expect(context.memorialPageId).toBe('inviters-page');
    },
    accepted: ({ context }, { event, actions, path }) => {
      expect(context.error).toBeNull();
      // Accepted means connected, and the link used up — with setAdmin too.
      const calls = startedIn(path).map((call) => call.src);
      expect(calls.slice(-1)).toEqual(['expireShareToken']);
      expect(calls).toContain('connectToInvitingUser');
      const admin = path.some(
        (step) => step.event?.type === 'LINK' && 'setAdmin' in step.event && step.event.setAdmin,
      );
      const lastLink = [...path].reverse().find((step) => step.event?.type === 'LINK')?.event as
        { setAdmin: boolean } | undefined;
      if (admin && lastLink?.setAdmin)
        expect(calls.slice(-2)).toEqual(['addMemorialPageAdmin', 'expireShareToken']);
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
