import { expect } from 'vitest';
import {
  AppAbsentError,
  identityVerificationMachine,
  type AuthStatus,
  type LoadedStatus,
} from '../../src/machines/identityVerification';
import { identityVerificationEvents } from './identityVerificationEvents';
import { describeModel, type StepInfo } from './modelTest';
import { ownActions } from './navigationSupport';

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
  events: identityVerificationEvents,
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
    // ACTIVE is shown whether or not the app is there: nothing is asked of the member, and
    // a browser's START (it has no such button) changes nothing.
    ACTIVE: (snapshot, step) => {
      expectShown(snapshot, step, 'ACTIVE');
      if (step.event?.type === 'START') expect(step.transitions).toBe(0);
    },
    needsApp: (snapshot, step) => {
      if (step.event?.type === 'xstate.error.actor.registerCertificate')
        expect((step.event as unknown as { error: unknown }).error).toBeInstanceOf(AppAbsentError);
      else expect(snapshot.context.status?.appPresent).toBe(false);
      expect(ownActions(step.actions)).toEqual([]);
    },
    registering: (snapshot) => {
      expect(Object.keys(snapshot.children)).toEqual(['registerCertificate']);
      // Only inside the app: a browser has no way to register a certificate.
      expect(snapshot.context.status?.appPresent).toBe(true);
    },
    failed: (_snapshot, step) => {
      if (step.event?.type === 'xstate.error.actor.loadStatus')
        expect(ownActions(step.actions)).toEqual(['reportLoadFailure']);
    },
  },
});
