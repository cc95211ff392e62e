import { expect } from 'vitest';
import {
  deathConfirmationMachine,
  type DeathConfirmationOutcome,
  type DeathConfirmationProgress,
} from '../../src/machines/deathConfirmation';
import { deathConfirmationEvents, subject, TODAY, waiting } from './deathConfirmationEvents';
import { describeModel, type StepInfo } from './modelTest';
import { ownActions } from './navigationSupport';

const saved: Omit<DeathConfirmationProgress, 'subject'>[] = [];
const completions: DeathConfirmationOutcome[] = [];
const leftFor: string[] = [];
/** The last of the four steps the path was in: the one a LEAVE leaves. */
let lastStep = '';
const machine = deathConfirmationMachine.provide({
  actions: {
    saveProgress: (_, progress) => void saved.push(progress),
    leave: (_, { subject }) => void leftFor.push(subject.userId),
    saveCompletion: (_, { outcome }) => void completions.push(outcome),
  },
});

/** Arriving at a step by the member's NEXT or BACK saves that step as the current one. */
function expectSavedOnArrival(step: StepInfo, name: string) {
  if (step.event?.type === 'NEXT' || step.event?.type === 'BACK') {
    expect(ownActions(step.actions)).toEqual(['saveProgress']);
    expect(saved.at(-1)?.step).toBe(name);
  }
}

describeModel('deathConfirmation', {
  machine,
  events: deathConfirmationEvents,
  states: {
    restoring: (snapshot) => expect(Object.keys(snapshot.children)).toEqual(['restore']),
    missing: (snapshot) => expect(snapshot.context.subject).toBeNull(),
    who: (snapshot, step) => {
      lastStep = 'who';
      expect(snapshot.context.subject).toEqual(subject);
      expectSavedOnArrival(step, 'who');
    },
    date: (snapshot, step) => {
      lastStep = 'date';
      if (snapshot.context.failure !== null) {
        // Stayed on NEXT: the date is missing or after today in Japan.
        expect(step.event?.type).toBe('NEXT');
        expect(snapshot.context.failure).toBe('date_invalid');
        expect(['', '2026-11-23']).toContain(snapshot.context.dateOfDeath);
        return expect(ownActions(step.actions)).toEqual([]);
      }
      expectSavedOnArrival(step, 'date');
    },
    relationship: (snapshot, step) => {
      lastStep = 'relationship';
      if (snapshot.context.failure !== null) {
        expect(step.event?.type).toBe('NEXT');
        expect(snapshot.context.failure).toBe('relationship_required');
        return expect(snapshot.context.relationship).toBeNull();
      }
      expectSavedOnArrival(step, 'relationship');
      expect(snapshot.context.dateOfDeath <= TODAY).toBe(true);
    },
    review: (snapshot, step) => {
      lastStep = 'review';
      expectSavedOnArrival(step, 'review');
      expect(snapshot.context.relationship).toBe('family');
      const failures: Record<string, string> = {
        'xstate.error.actor.requestSign': 'certificate_required',
        'xstate.error.actor.baseSign': 'sign_failed',
        'xstate.error.actor.submit': 'unexpected',
      };
      const type = step.event?.type ?? '';
      expect(snapshot.context.failure).toBe(failures[type] ?? null);
    },
    'signing.requesting': (snapshot) =>
      expect(Object.keys(snapshot.children)).toEqual(['requestSign']),
    'signing.signingInApp': (snapshot) => {
      expect(snapshot.context.signRequest?.signTag).toBe('tag-1');
      expect(Object.keys(snapshot.children)).toEqual(['baseSign']);
    },
    'signing.submitting': (snapshot) => {
      expect(snapshot.context.signature).toBe('c2lnbmF0dXJl');
      expect(Object.keys(snapshot.children)).toEqual(['submit']);
    },
    completed: (snapshot, step) => {
      expect(snapshot.context.outcome).toEqual(waiting);
      if (step.event?.type === 'xstate.done.actor.submit') {
        expect(ownActions(step.actions)).toEqual(['saveCompletion']);
        expect(completions.at(-1)).toEqual(waiting);
      }
    },
    finished: (_snapshot, step) => expect(ownActions(step.actions)).toEqual(['finish']),
    left: (snapshot, step) => {
      // Left from a step: that step is saved with what was entered, then the flow is left.
      expect(step.event?.type).toBe('LEAVE');
      expect(ownActions(step.actions)).toEqual(['saveProgress', 'leave']);
      expect(saved.at(-1)).toEqual({
        step: lastStep,
        dateOfDeath: snapshot.context.dateOfDeath,
        relationship: snapshot.context.relationship,
      });
      expect(leftFor.at(-1)).toBe(subject.userId);
    },
  },
});
