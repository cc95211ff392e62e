import { expect } from 'vitest';
import {
  ConfirmationFailure,
  deathConfirmationMachine,
  type DeathConfirmationOutcome,
  type DeathConfirmationProgress,
  type RestoredData,
} from '../../src/machines/deathConfirmation';
import { describeModel, type StepInfo } from './modelTest';
import { ownActions } from './navigationSupport';

const TODAY = '2026-11-22';
const subject = { userId: 'user-mother', name: '山田 花子', memorialPageId: 'page-mother' };
const progressAt = (step: DeathConfirmationProgress['step']): DeathConfirmationProgress => ({
  subject,
  step,
  dateOfDeath: step === 'who' || step === 'date' ? '' : '2026-11-20',
  relationship: step === 'review' ? 'family' : null,
});
const restored = (data: Partial<RestoredData>): RestoredData => ({
  progress: null,
  completion: null,
  today: TODAY,
  ...data,
});
const waiting: DeathConfirmationOutcome = {
  subject,
  state: 'suspected',
  confirmationsNeeded: 2,
  confirmationsMade: 1,
  graceEndsAt: null,
};

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
  events: ((snapshot: { value: unknown }) => {
    switch (JSON.stringify(snapshot.value)) {
      case '"restoring"':
        return [
          { type: 'xstate.done.actor.restore', output: restored({}) },
          { type: 'xstate.done.actor.restore', output: restored({ progress: progressAt('who') }) },
          { type: 'xstate.done.actor.restore', output: restored({ progress: progressAt('date') }) },
          {
            type: 'xstate.done.actor.restore',
            output: restored({ progress: progressAt('relationship') }),
          },
          {
            type: 'xstate.done.actor.restore',
            output: restored({ progress: progressAt('review') }),
          },
          { type: 'xstate.done.actor.restore', output: restored({ completion: waiting }) },
          { type: 'xstate.error.actor.restore', error: new Error('storage refused') },
        ];
      case '"who"':
        return [{ type: 'NEXT' }, { type: 'LEAVE' }];
      case '"date"':
        return [
          { type: 'SET_DATE', value: '2026-11-20' },
          { type: 'SET_DATE', value: '2026-11-23' },
          { type: 'NEXT' },
          { type: 'BACK' },
          { type: 'LEAVE' },
        ];
      case '"relationship"':
        return [
          { type: 'SET_RELATIONSHIP', value: 'family' },
          { type: 'NEXT' },
          { type: 'BACK' },
          { type: 'LEAVE' },
        ];
      case '"review"':
        return [{ type: 'SIGN' }, { type: 'BACK' }, { type: 'LEAVE' }];
      case '{"signing":"requesting"}':
        return [
          {
            type: 'xstate.done.actor.requestSign',
            output: { signTag: 'tag-1', signContent: 'shinobu-death-confirmation/v1' },
          },
          {
            type: 'xstate.error.actor.requestSign',
            error: new ConfirmationFailure('certificate_required'),
          },
        ];
      case '{"signing":"signingInApp"}':
        return [
          { type: 'xstate.done.actor.baseSign', output: { signature: 'c2lnbmF0dXJl' } },
          { type: 'xstate.error.actor.baseSign', error: new Error('CANCELLED') },
        ];
      case '{"signing":"submitting"}':
        return [
          { type: 'xstate.done.actor.submit', output: waiting },
          { type: 'xstate.error.actor.submit', error: new Error('network') },
        ];
      case '"completed"':
        return [{ type: 'FINISH' }];
      default:
        return [];
    }
  }) as never,
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
