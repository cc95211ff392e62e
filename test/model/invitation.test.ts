import { expect } from 'vitest';
import { invitationMachine, type SharedLink } from '../../src/machines/invitation';
import { toSnakeCase } from '../../src/services/http/casing';
import { invitationEvents } from './flowEvents';
import { describeModel, type InvokedActor, type StepInfo } from './modelTest';
import { ownActions } from './navigationSupport';

/** The effects the chart asks of the app in one step, with what it gave each. */
const effects: [string, unknown][] = [];
const record = (name: string) => (_: unknown, params?: unknown) =>
  void effects.push(params === undefined ? [name, undefined] : [name, params]);
const machine = invitationMachine.provide({
  actions: {
    keepLink: record('keepLink'),
    clearInvitation: record('clearInvitation'),
    returnHereAfterLogin: record('returnHereAfterLogin'),
    openLogin: record('openLogin'),
    openRegistration: record('openRegistration'),
    setPetAdmin: record('setPetAdmin'),
  },
});
/** The effects since the last state was checked (every step checks exactly one state). */
const takeEffects = () => effects.splice(0);
const kept = (setAdmin: boolean) => [
  'keepLink',
  { shareToken: 'share-token', invitingUserId: 'inviter', setAdmin },
];

/** Every invitation call sends the pair from the link, as the wire has it. */
const credential = { token: 'share-token', inviting_user_id: 'inviter' };
const wire = (actor: InvokedActor) => ({ src: actor.src, input: toSnakeCase(actor.input) });
const startedIn = (path: StepInfo[]) => path.flatMap((step) => step.invoked).map(wire);

const entered = (event: { type: string } | undefined, ...types: string[]) =>
  event !== undefined && types.includes(event.type);

describeModel('invitation', {
  machine,
  input: { userId: null },
  events: invitationEvents,
  states: {
    absent: ({ context }) => {
      // Waiting for the link: nothing is asked of the app yet.
      expect(takeEffects()).toEqual([]);
      expect(context.shareToken).toBeNull();
      expect(context.invitingUserId).toBeNull();
      expect(context.error).toBeNull();
    },
    validating: ({ context, children }, { event, invoked, actions, transitions }) => {
      const asked = takeEffects();
      // A complete link is kept through login or registration, as the address gave it.
      if (event?.type === 'LINK' && transitions > 0)
        expect(asked).toEqual([kept(context.setAdmin)]);
      else expect(asked).toEqual([]);
      if (event?.type === 'LINK' && actions.includes('rememberLink'))
        expect(invoked).toHaveLength(1);
      expect(invoked.map(wire)).toEqual(
        invoked.length === 0 ? [] : [{ src: 'validateShareToken', input: credential }],
      );
      expect(context.shareToken).toBe('share-token');
      expect(context.invitingUserId).toBe('inviter');
      expect(Object.keys(children)).toEqual(['validateShareToken']);
    },
    awaitingLogin: ({ context }, { event }) => {
      // A valid invitation is kept while the visitor logs in or registers.
      expect(context.userId).toBeNull();
      expect(context.shareToken).toBe('share-token');
      const asked = takeEffects();
      if (event?.type === 'SIGN_IN')
        expect(asked).toEqual([
          ['returnHereAfterLogin', undefined],
          ['openLogin', undefined],
        ]);
      else if (event?.type === 'REGISTER') {
        // Any link but a pet page's admin link: registering comes back here.
        expect(context.pet && context.setAdmin).toBe(false);
        expect(asked).toEqual([
          ['returnHereAfterLogin', undefined],
          ['openRegistration', { pet: false }],
        ]);
      } else expect(asked).toEqual([]);
    },
    handedToPetAdmin: ({ context }, { event, transitions }) => {
      expect(context).toMatchObject({ pet: true, setAdmin: true });
      const asked = takeEffects();
      if (event?.type === 'REGISTER' && transitions > 0)
        // The pet page's admin link starts the pet-admin setting with its token, is no longer
        // kept for a return here, and the registration opens in pet mode.
        expect(asked).toEqual([
          ['setPetAdmin', { targetMemorialPageEncodedId: 'share-token' }],
          ['clearInvitation', undefined],
          ['openRegistration', { pet: true }],
        ]);
      else expect(asked).toEqual([]);
    },
    connecting: ({ context, children }, { invoked }) => {
      expect(takeEffects()).toEqual([]);
      expect(invoked.map(wire)).toEqual(
        invoked.length === 0 ? [] : [{ src: 'connectToInvitingUser', input: credential }],
      );
      expect(context.userId).toBe('invitee');
      expect(Object.keys(children)).toEqual(['connectToInvitingUser']);
    },
    resolvingPage: ({ context }, { invoked }) => {
      expect(takeEffects()).toEqual([]);
      expect(invoked.map(wire)).toEqual(
        invoked.length === 0 ? [] : [{ src: 'resolveMemorialPage', input: credential }],
      );
      expect(context.setAdmin).toBe(true);
    },
    addingAdmin: ({ context }, { event, invoked }) => {
      expect(takeEffects()).toEqual([]);
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
      expect(takeEffects()).toEqual([]);
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
      const asked = takeEffects();
      // The link is used up: the kept one goes.
      if (entered(event, 'xstate.done.actor.expireShareToken'))
        expect(asked).toEqual([['clearInvitation', undefined]]);
      else expect(asked).toEqual([]);
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
    invalid: ({ context }, { event, actions, transitions }) => {
      expect(context.error).toBe('invalid-invitation');
      const asked = takeEffects();
      if (event?.type === 'LINK' && transitions > 0) {
        // An incomplete link is no invitation: nothing is kept.
        const sent = event as unknown as SharedLink;
        expect(sent.shareToken === null || sent.invitingUserId === null).toBe(true);
        expect(context.shareToken).toBeNull();
      }
      // Entered at this step (LOGGED_IN is heard everywhere and only remembers the member).
      if (transitions > 0 && event?.type !== 'LOGGED_IN')
        expect(asked).toEqual([['clearInvitation', undefined]]);
      else expect(asked).toEqual([]);
      if (event?.type.startsWith('xstate.')) {
        expect(ownActions(actions)).toEqual(['clearInvitation']);
      }
    },
  },
});
