import { assign, fromPromise, setup } from 'xstate';
import type { z } from 'zod';
import type { createPageSchema } from '../../contract/rules/memorial';

/**
 * Creating a memory (its state: type, user, pet): the member chooses
 * whose memorial page it is — their own (`self`, made at registration, so it simply opens),
 * another person's (`other`, the otherAdmin mode) or a pet's (`pet`) — fills in the profile,
 * and the page is created with the member as its admin (POST /v1/memorial_page).
 */
export type MemoryType = 'self' | 'other' | 'pet';
export type MemoryProfile = Omit<z.input<ReturnType<typeof createPageSchema>>, 'type'>;

export interface FieldError {
  field: string;
  code: string;
}

export interface MemoryCreationContext {
  /** The member's own page (session user memorialPageId). */
  ownMemorialPageId: string | null;
  type: MemoryType | null;
  memorialPageId: string | null;
  fieldErrors: FieldError[];
  failed: boolean;
}

export type MemoryCreationEvent =
  | { type: 'CHOOSE'; memoryType: MemoryType }
  | { type: 'SUBMIT'; profile: MemoryProfile }
  | { type: 'BACK' };

/** The 422 field errors of a failed call (axios shape), or none. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  const errors = (error as { response?: { data?: { errors?: unknown } } } | null)?.response?.data
    ?.errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : [];
}

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "memoryCreation" was not provided`);
  });

export const memoryCreationMachine = setup({
  types: {
    context: {} as MemoryCreationContext,
    input: {} as { ownMemorialPageId: string | null },
    events: {} as MemoryCreationEvent,
  },
  actors: {
    createMemorialPage: notProvided<
      { memorialPageId: string },
      { type: 'other' | 'pet'; profile: MemoryProfile }
    >('createMemorialPage'),
  },
  actions: {
    /** Opens /memory/{memorialPageId}. */
    openMemorialPage: (_, _params: { memorialPageId: string }) => undefined,
    chooseType: assign({
      type: ({ event }) => (event.type === 'CHOOSE' ? event.memoryType : null),
      fieldErrors: [],
      failed: false,
    }),
    forget: assign({ type: null, memorialPageId: null, fieldErrors: [], failed: false }),
  },
  guards: {
    choseOwnPage: ({ context, event }) =>
      event.type === 'CHOOSE' && event.memoryType === 'self' && context.ownMemorialPageId !== null,
    choseOtherOrPet: ({ event }) => event.type === 'CHOOSE' && event.memoryType !== 'self',
  },
}).createMachine({
  id: 'memoryCreation',
  context: ({ input }) => ({
    ownMemorialPageId: input.ownMemorialPageId,
    type: null,
    memorialPageId: null,
    fieldErrors: [],
    failed: false,
  }),
  initial: 'choosingType',
  states: {
    choosingType: {
      on: {
        CHOOSE: [
          {
            guard: 'choseOwnPage',
            target: 'created',
            actions: [
              'chooseType',
              assign({ memorialPageId: ({ context }) => context.ownMemorialPageId }),
            ],
          },
          { guard: 'choseOtherOrPet', target: 'editingProfile', actions: 'chooseType' },
        ],
      },
    },
    editingProfile: {
      on: {
        SUBMIT: 'creating',
        BACK: { target: 'choosingType', actions: 'forget' },
      },
    },
    creating: {
      invoke: {
        id: 'createMemorialPage',
        src: 'createMemorialPage',
        input: ({ context, event }) => ({
          type: context.type === 'pet' ? 'pet' : 'other',
          profile: event.type === 'SUBMIT' ? event.profile : ({} as MemoryProfile),
        }),
        onDone: {
          target: 'created',
          actions: assign({ memorialPageId: ({ event }) => event.output.memorialPageId }),
        },
        onError: {
          target: 'editingProfile',
          actions: assign({
            fieldErrors: ({ event }) => fieldErrorsOf(event.error),
            failed: ({ event }) => fieldErrorsOf(event.error).length === 0,
          }),
        },
      },
    },
    created: {
      entry: {
        type: 'openMemorialPage',
        params: ({ context }) => ({ memorialPageId: context.memorialPageId ?? '' }),
      },
    },
  },
});
