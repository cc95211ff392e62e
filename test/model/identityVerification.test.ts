import { expect } from 'vitest';
import {
  AppAbsentError,
  identityVerificationMachine,
  type AuthStatus,
  type LoadedStatus,
} from '../../src/machines/identityVerification';
import { describeModel, type StepInfo } from './modelTest';
import { ownActions } from './navigationSupport';

const loaded = (authStatus: AuthStatus, appPresent: boolean): LoadedStatus => ({
  authStatus,
  notAfter: authStatus === 'ACTIVE' ? '2027-11-22T00:00:00.000Z' : null,
  revokedReason: authStatus === 'REVOKED' ? 'expired' : null,
  appPresent,
});

const machine = identityVerificationMachine;

function expectShown(
  snapshot: { context: { status: LoadedStatus | null } },
  step: StepInfo,
  authStatus: AuthStatus,
) {
  expect(snapshot.context.status?.authStatus).toBe(authStatus);
  if (step.event?.type === 'xstate.done.actor.loadStatus') {
    expect(ownActions(step.actions)).toEqual([]);
  }
}

describeModel('identityVerification', {
  machine,
  // START is a button of the four status screens, RETRY one of the failure screen.
  events: ((snapshot: { value: unknown }) => {
    if (['INITIAL', 'PROGRESS', 'REVOKED', 'ACTIVE'].includes(snapshot.value as string))
      return [{ type: 'START' }];
    if (snapshot.value === 'failed') return [{ type: 'RETRY' }];
    return [
      { type: 'xstate.done.actor.loadStatus', output: loaded('INITIAL', true) },
      { type: 'xstate.done.actor.loadStatus', output: loaded('PROGRESS', true) },
      { type: 'xstate.done.actor.loadStatus', output: loaded('ACTIVE', false) },
      { type: 'xstate.done.actor.loadStatus', output: loaded('REVOKED', true) },
      { type: 'xstate.done.actor.loadStatus', output: loaded('REVOKED', false) },
      { type: 'xstate.error.actor.loadStatus', error: new Error('offline') },
      { type: 'xstate.done.actor.registerCertificate', output: undefined },
      { type: 'xstate.error.actor.registerCertificate', error: new AppAbsentError() },
      {
        type: 'xstate.error.actor.registerCertificate',
        error: new Error('certificate_not_trusted'),
      },
    ];
  }) as never,
  states: {
    loading: (snapshot, step) => {
      expect(Object.keys(snapshot.children)).toEqual(['loadStatus']);
      // A refused registration tells the member (error toast) and reads the status again.
      if (step.event?.type === 'xstate.error.actor.registerCertificate')
        expect(ownActions(step.actions)).toEqual(['notifyRegistrationFailure']);
      else expect(ownActions(step.actions)).toEqual([]);
    },
    INITIAL: (snapshot, step) => {
      expectShown(snapshot, step, 'INITIAL');
      expect(snapshot.context.status?.appPresent).toBe(true);
    },
    PROGRESS: (snapshot, step) => expectShown(snapshot, step, 'PROGRESS'),
    REVOKED: (snapshot, step) => {
      expectShown(snapshot, step, 'REVOKED');
      expect(snapshot.context.status?.appPresent).toBe(true);
    },
    // ACTIVE is shown whether or not the app is there: nothing is asked of the member.
    ACTIVE: (snapshot, step) => expectShown(snapshot, step, 'ACTIVE'),
    needsApp: (snapshot, step) => {
      if (step.event?.type === 'xstate.error.actor.registerCertificate')
        expect((step.event as unknown as { error: unknown }).error).toBeInstanceOf(AppAbsentError);
      else expect(snapshot.context.status?.appPresent).toBe(false);
      expect(ownActions(step.actions)).toEqual([]);
    },
    registering: (snapshot) => {
      expect(Object.keys(snapshot.children)).toEqual(['registerCertificate']);
    },
    failed: (_snapshot, step) => {
      if (step.event?.type === 'xstate.error.actor.loadStatus')
        expect(ownActions(step.actions)).toEqual(['reportLoadFailure']);
    },
  },
});
