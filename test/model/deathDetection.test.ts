import { expect } from 'vitest';
import type { SuspectedUser } from '../../contract/deathDetection';
import type { SnapshotFrom } from 'xstate';
import {
  deathDetectionMachine,
  type IdentityStatusAnswer,
} from '../../src/machines/deathDetection';
import { describeModel, type StepInfo } from './modelTest';
import { ownActions } from './navigationSupport';
import { deathDetectionEvents, ME, mother, TODAY } from './sessionFlowEvents';

const remembered: string[] = [];
const failures: { step: string; error: unknown }[] = [];
const opened: SuspectedUser[] = [];
const machine = deathDetectionMachine.provide({
  actions: {
    rememberShown: (_, { date }) => void remembered.push(date),
    openDeathConfirmation: (_, { suspect }) => void opened.push(suspect),
    reportFailure: (_, failure) => void failures.push(failure),
  },
});

/** Each identity status that cannot confirm has its own modal, entered only from that status. */
const identityModal =
  (authStatus: string, revokedReason: string | null) =>
  (snapshot: SnapshotFrom<typeof machine>, step: StepInfo) => {
    expect(snapshot.context.environment?.inApp).toBe(true);
    expect(snapshot.context.suspect).toEqual(mother);
    if (step.event?.type !== 'xstate.done.actor.readIdentityStatus') return;
    expect((step.event as unknown as { output: IdentityStatusAnswer }).output).toEqual({
      authStatus,
      revokedReason,
    });
    expect(ownActions(step.actions)).toEqual(['rememberShown']);
    expect(remembered.at(-1)).toBe(TODAY);
  };

describeModel('deathDetection', {
  machine,
  events: deathDetectionEvents,
  states: {
    waitingForLoad: (snapshot, step) => {
      expect(snapshot.context.environment).toBeNull();
      expect(ownActions(step.actions)).toEqual([]);
    },
    checking: (snapshot) => {
      expect(Object.keys(snapshot.children)).toEqual(['findSuspectedUser']);
    },
    cancelling: (snapshot, step) => {
      // Only the signed-in member's own suspicion is cancelled, in grace too.
      expect(snapshot.context.suspect?.userId).toBe(ME);
      expect(step.invoked).toEqual([{ src: 'cancelSuspicion', input: { userId: ME } }]);
      expect(Object.keys(snapshot.children)).toEqual(['cancelSuspicion']);
    },
    readingIdentityStatus: (snapshot) => {
      // The status is read only inside the app, for someone else's suspicion.
      expect(snapshot.context.environment?.inApp).toBe(true);
      expect(snapshot.context.suspect?.userId).toBe(mother.userId);
      expect(Object.keys(snapshot.children)).toEqual(['readIdentityStatus']);
    },
    deathModal: (snapshot, step) => {
      expect(snapshot.context.suspect).toEqual(mother);
      expect(snapshot.context.environment?.lastShownDate).not.toBe(TODAY);
      if (step.event?.type === 'START_CONFIRMATION') {
        // A plain browser has no action button; the event changes nothing there.
        expect(snapshot.context.environment?.inApp).toBe(false);
        return expect(ownActions(step.actions)).toEqual([]);
      }
      expect(ownActions(step.actions)).toEqual(['rememberShown']);
      expect(remembered.at(-1)).toBe(TODAY);
      // A plain browser comes here without reading the status; the app only when ACTIVE.
      if (snapshot.context.environment?.inApp)
        expect(step.event?.type).toBe('xstate.done.actor.readIdentityStatus');
      else expect(step.event?.type).toBe('xstate.done.actor.findSuspectedUser');
    },
    unverifiedModal: identityModal('INITIAL', null),
    progressModal: identityModal('PROGRESS', null),
    expiredModal: identityModal('REVOKED', 'expired'),
    revokedModal: identityModal('REVOKED', 'revoked'),
    done: (snapshot, step) => {
      const actions = ownActions(step.actions);
      switch (step.event?.type) {
        case 'START_CONFIRMATION':
          expect(snapshot.context.environment?.inApp).toBe(true);
          expect(actions).toEqual(['openDeathConfirmation']);
          expect(opened.at(-1)).toEqual(mother);
          break;
        case 'REVERIFY':
          expect(actions).toEqual(['openIdentityVerification']);
          break;
        case 'xstate.error.actor.findSuspectedUser':
        case 'xstate.error.actor.cancelSuspicion':
        case 'xstate.error.actor.readIdentityStatus':
          expect(actions).toEqual(['reportFailure']);
          // The failing step is named: the actor whose error this is.
          expect(failures.at(-1)?.step).toBe(step.event.type.replace('xstate.error.actor.', ''));
          break;
        case 'xstate.done.actor.findSuspectedUser':
          // Nobody suspected, a case in grace, or a modal already shown today: nothing happens.
          expect(actions).toEqual([]);
          if (snapshot.context.suspect?.state === 'suspected')
            expect(snapshot.context.environment?.lastShownDate).toBe(TODAY);
          break;
        default:
          expect(actions).toEqual([]);
      }
    },
  },
});
