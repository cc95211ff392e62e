import { assign, fromPromise, setup } from 'xstate';
import type { RelationshipValue } from '../../contract/rules/social';

/**
 * /death-confirmation: an administrator confirms the death of a member they
 * administer, step by step — who died (name, memorial page), the date of death, their
 * relationship, then a final confirmation signed in the app with the administrator's own
 * certificate (the bridge's base sign over the server's sign request). Progress is saved after
 * every step (`saveProgress`, localStorage `deathConfirmationData`) and the outcome on success
 * (`saveCompletion`, `deathConfirmationCompletionData`), so a reload resumes where it was:
 * `restore` reads both back. Every step has a way out (LEAVE) that saves what was entered, even
 * a date or relationship not yet confirmed with NEXT, and leaves to where it can be resumed.
 */
export interface DeathConfirmationSubject {
  userId: string;
  name: string;
  memorialPageId: string | null;
}

export type DeathConfirmationStep = 'who' | 'date' | 'relationship' | 'review';

/** What `deathConfirmationData` holds. */
export interface DeathConfirmationProgress {
  subject: DeathConfirmationSubject;
  step: DeathConfirmationStep;
  dateOfDeath: string;
  relationship: RelationshipValue | null;
}

/** What `deathConfirmationCompletionData` holds: the server's answer to the confirmation. */
export interface DeathConfirmationOutcome {
  subject: DeathConfirmationSubject;
  /** 'suspected': waiting for another administrator; 'grace': confirmed, grace period runs. */
  state: 'suspected' | 'grace' | 'released' | 'alive';
  confirmationsNeeded: number;
  confirmationsMade: number;
  graceEndsAt: string | null;
}

export interface RestoredData {
  progress: DeathConfirmationProgress | null;
  completion: DeathConfirmationOutcome | null;
  /** Today in Asia/Tokyo, `YYYY-MM-DD`: the latest allowed date of death. */
  today: string;
}

export interface DeathConfirmationContext {
  subject: DeathConfirmationSubject | null;
  dateOfDeath: string;
  relationship: RelationshipValue | null;
  today: string;
  /** Why the last attempt failed: a validation or server code shown in the review step. */
  failure: string | null;
  signRequest: SignRequest | null;
  signature: string | null;
  outcome: DeathConfirmationOutcome | null;
}

export type DeathConfirmationEvent =
  | { type: 'NEXT' }
  | { type: 'BACK' }
  | { type: 'SET_DATE'; value: string }
  | { type: 'SET_RELATIONSHIP'; value: RelationshipValue }
  | { type: 'SIGN' }
  | { type: 'FINISH' }
  | { type: 'LEAVE' };

export interface SignRequest {
  signTag: string;
  signContent: string;
}

/** A failure with a code the screen shows (`death-confirmation-error-<code>`). */
export class ConfirmationFailure extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'ConfirmationFailure';
  }
}

export function failureCode(error: unknown): string {
  return error instanceof ConfirmationFailure ? error.code : 'unexpected';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date, not after today (Japan). */
export function isValidDateOfDeath(value: string, today: string): boolean {
  if (!DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return (
    !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value && value <= today
  );
}

const progressOf = (context: DeathConfirmationContext, step: DeathConfirmationStep) => ({
  step,
  dateOfDeath: context.dateOfDeath,
  relationship: context.relationship,
});

/** Moving to another step forgets the last failure and saves the step reached. */
const save = (step: DeathConfirmationStep) =>
  [
    'clearFailure',
    {
      type: 'saveProgress',
      params: ({ context }: { context: DeathConfirmationContext }) => progressOf(context, step),
    },
  ] as const;

/** Leaving a step saves it as it is, what was typed included, then leaves the flow. */
const leave = (step: DeathConfirmationStep) => ({
  target: 'left' as const,
  actions: [
    {
      type: 'saveProgress' as const,
      params: ({ context }: { context: DeathConfirmationContext }) => progressOf(context, step),
    },
    {
      type: 'leave' as const,
      params: ({ context }: { context: DeathConfirmationContext }) => ({
        subject: context.subject!,
      }),
    },
  ],
});

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "deathConfirmation" was not provided`);
  });

export const deathConfirmationMachine = setup({
  types: {
    context: {} as DeathConfirmationContext,
    events: {} as DeathConfirmationEvent,
  },
  actors: {
    restore: notProvided<RestoredData>('restore'),
    requestSign: notProvided<
      SignRequest,
      { subject: DeathConfirmationSubject; dateOfDeath: string; relationship: RelationshipValue }
    >('requestSign'),
    baseSign: notProvided<{ signature: string }, SignRequest>('baseSign'),
    submit: notProvided<
      DeathConfirmationOutcome,
      {
        subject: DeathConfirmationSubject;
        dateOfDeath: string;
        relationship: RelationshipValue;
        signRequest: SignRequest;
        signature: string;
      }
    >('submit'),
  },
  actions: {
    clearFailure: assign({ failure: null }),
    resume: assign((_, { progress, today }: RestoredData) => {
      return {
        subject: progress!.subject,
        dateOfDeath: progress!.dateOfDeath,
        relationship: progress!.relationship,
        today,
      };
    }),
    saveProgress: (
      _,
      _params: Pick<DeathConfirmationProgress, 'step' | 'dateOfDeath' | 'relationship'>,
    ) => undefined,
    saveCompletion: (_, _params: { outcome: DeathConfirmationOutcome }) => undefined,
    /** Clears both stored records and leaves the flow. */
    finish: () => undefined,
    /** Leaves the flow with its progress kept, to where it resumes (the member's case). */
    leave: (_, _params: { subject: DeathConfirmationSubject }) => undefined,
  },
  guards: {
    hasCompletion: (_, data: RestoredData) => data.completion !== null,
    savedAt: (_, { data, step }: { data: RestoredData; step: DeathConfirmationStep }) =>
      data.progress?.step === step,
    dateValid: ({ context }) => isValidDateOfDeath(context.dateOfDeath, context.today),
    relationshipChosen: ({ context }) => context.relationship !== null,
  },
}).createMachine({
  id: 'deathConfirmation',
  context: {
    subject: null,
    dateOfDeath: '',
    relationship: null,
    today: '1970-01-01',
    failure: null,
    signRequest: null,
    signature: null,
    outcome: null,
  },
  initial: 'restoring',
  states: {
    restoring: {
      invoke: {
        id: 'restore',
        src: 'restore',
        onDone: [
          {
            guard: { type: 'hasCompletion', params: ({ event }) => event.output },
            target: 'completed',
            actions: assign({
              outcome: ({ event }) => event.output.completion,
              subject: ({ event }) => event.output.completion!.subject,
              today: ({ event }) => event.output.today,
            }),
          },
          {
            guard: {
              type: 'savedAt',
              params: ({ event }) => ({ data: event.output, step: 'who' }),
            },
            target: 'who',
            actions: { type: 'resume', params: ({ event }) => event.output },
          },
          {
            guard: {
              type: 'savedAt',
              params: ({ event }) => ({ data: event.output, step: 'date' }),
            },
            target: 'date',
            actions: { type: 'resume', params: ({ event }) => event.output },
          },
          {
            guard: {
              type: 'savedAt',
              params: ({ event }) => ({ data: event.output, step: 'relationship' }),
            },
            target: 'relationship',
            actions: { type: 'resume', params: ({ event }) => event.output },
          },
          {
            guard: {
              type: 'savedAt',
              params: ({ event }) => ({ data: event.output, step: 'review' }),
            },
            target: 'review',
            actions: { type: 'resume', params: ({ event }) => event.output },
          },
          { target: 'missing' },
        ],
        onError: 'missing',
      },
    },
    /** Nothing to confirm: the page was opened without the death-detection modal's data. */
    missing: {},
    who: {
      on: { NEXT: { target: 'date', actions: save('date') }, LEAVE: leave('who') },
    },
    date: {
      on: {
        SET_DATE: { actions: assign({ dateOfDeath: ({ event }) => event.value, failure: null }) },
        NEXT: [
          { guard: 'dateValid', target: 'relationship', actions: save('relationship') },
          { actions: assign({ failure: 'date_invalid' }) },
        ],
        BACK: { target: 'who', actions: save('who') },
        LEAVE: leave('date'),
      },
    },
    relationship: {
      on: {
        SET_RELATIONSHIP: {
          actions: assign({ relationship: ({ event }) => event.value, failure: null }),
        },
        NEXT: [
          { guard: 'relationshipChosen', target: 'review', actions: save('review') },
          { actions: assign({ failure: 'relationship_required' }) },
        ],
        BACK: { target: 'date', actions: save('date') },
        LEAVE: leave('relationship'),
      },
    },
    review: {
      on: {
        SIGN: { target: 'signing', actions: assign({ failure: null }) },
        BACK: { target: 'relationship', actions: save('relationship') },
        LEAVE: leave('review'),
      },
    },
    signing: {
      initial: 'requesting',
      states: {
        requesting: {
          invoke: {
            id: 'requestSign',
            src: 'requestSign',
            input: ({ context }) => ({
              subject: context.subject!,
              dateOfDeath: context.dateOfDeath,
              relationship: context.relationship!,
            }),
            onDone: {
              target: 'signingInApp',
              actions: assign({ signRequest: ({ event }) => event.output }),
            },
            onError: {
              target: '#deathConfirmation.review',
              actions: assign({ failure: ({ event }) => failureCode(event.error) }),
            },
          },
        },
        signingInApp: {
          invoke: {
            id: 'baseSign',
            src: 'baseSign',
            input: ({ context }) => context.signRequest!,
            onDone: {
              target: 'submitting',
              actions: assign({ signature: ({ event }) => event.output.signature }),
            },
            onError: {
              target: '#deathConfirmation.review',
              actions: assign({ failure: 'sign_failed' }),
            },
          },
        },
        submitting: {
          invoke: {
            id: 'submit',
            src: 'submit',
            input: ({ context }) => ({
              subject: context.subject!,
              dateOfDeath: context.dateOfDeath,
              relationship: context.relationship!,
              signRequest: context.signRequest!,
              signature: context.signature!,
            }),
            onDone: {
              target: '#deathConfirmation.completed',
              actions: [
                assign({ outcome: ({ event }) => event.output }),
                { type: 'saveCompletion', params: ({ event }) => ({ outcome: event.output }) },
              ],
            },
            onError: {
              target: '#deathConfirmation.review',
              actions: assign({ failure: ({ event }) => failureCode(event.error) }),
            },
          },
        },
      },
    },
    completed: {
      on: { FINISH: { target: 'finished', actions: 'finish' } },
    },
    finished: { type: 'final' },
    /** Left before the end: the progress stays saved for the next visit. */
    left: { type: 'final' },
  },
});
