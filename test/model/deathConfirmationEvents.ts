/**
 * The death confirmation's model: the events each state is offered, shared by the model test
 * and the UI replay.
 */
import {
  ConfirmationFailure,
  type DeathConfirmationOutcome,
  type DeathConfirmationProgress,
  type RestoredData,
} from '../../src/machines/deathConfirmation';

export const TODAY = '2026-11-22';
export const subject = { userId: 'user-mother', name: '山田 花子', memorialPageId: 'page-mother' };
export const progressAt = (step: DeathConfirmationProgress['step']): DeathConfirmationProgress => ({
  subject,
  step,
  dateOfDeath: step === 'who' || step === 'date' ? '' : '2026-11-20',
  relationship: step === 'review' ? 'family' : null,
});
export const restored = (data: Partial<RestoredData>): RestoredData => ({
  progress: null,
  completion: null,
  today: TODAY,
  ...data,
});
export const waiting: DeathConfirmationOutcome = {
  subject,
  state: 'suspected',
  confirmationsNeeded: 2,
  confirmationsMade: 1,
  graceEndsAt: null,
};

/** Each state is offered the events that can happen in it. */
export const deathConfirmationEvents = ((snapshot: { value: unknown }) => {
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
}) as never;
