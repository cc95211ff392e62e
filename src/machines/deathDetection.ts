import { assign, fromPromise, setup } from 'xstate';
import type { SuspectedUser } from '../../contract/deathDetection';

/**
 * The header's death-detection flow: after load it asks for a death-suspected user.
 * The current user's own suspicion is cancelled at once (signing in proves they are alive).
 * For a member the current user administers, the app web view reads the current user's
 * identity verification status: active leads to the death-detection modal (whose action
 * starts /death-confirmation); every other status has its own modal saying what to do next —
 * never verified, verification left halfway, certificate expired, certificate revoked — each
 * closing only through its actions (verify or later). A plain browser skips the status read and
 * shows the death-detection modal with the app-store links instead of the action.
 * Either modal is shown at most once a day (Asia/Tokyo): `today` and `lastShownDate` come from
 * the edge (localStorage `lastDeathConfirmationStepsModalShowDate`), `rememberShown` writes it.
 * The flow starts when the shell sends LOADED with what it knows once a member is signed in.
 */

export interface DeathDetectionEnvironment {
  currentUserId: string;
  /** Inside the app's web view (the native bridge is present). */
  inApp: boolean;
  /** Today's date in Asia/Tokyo, `YYYY-MM-DD`. */
  today: string;
  /** The day a modal of this flow was last shown, or null. */
  lastShownDate: string | null;
}

export interface DeathDetectionContext {
  environment: DeathDetectionEnvironment | null;
  suspect: SuspectedUser | null;
}

export type DeathDetectionEvent =
  | ({ type: 'LOADED' } & DeathDetectionEnvironment)
  | { type: 'START_CONFIRMATION' }
  | { type: 'CLOSE' }
  | { type: 'REVERIFY' }
  | { type: 'LATER' };

/** The answer of the identity verification status read. */
export interface IdentityStatusAnswer {
  authStatus: string;
  /** Why a REVOKED status is revoked: the certificate expired, or it was revoked. */
  revokedReason: 'expired' | 'revoked' | null;
}

export const ACTIVE_AUTH_STATUS = 'ACTIVE';

/**
 * A suspicion of someone other than the current user, still to be confirmed (a case already
 * in grace asks nobody), with no modal of this flow shown today.
 */
function modalDue(context: DeathDetectionContext, suspect: SuspectedUser | null): boolean {
  const environment = context.environment;
  return (
    suspect !== null &&
    environment !== null &&
    suspect.userId !== environment.currentUserId &&
    suspect.state === 'suspected' &&
    environment.lastShownDate !== environment.today
  );
}

/**
 * A modal for an identity status that cannot confirm yet: it closes only through its actions,
 * to the verification screen or until another day.
 */
const identityModal = {
  entry: {
    type: 'rememberShown',
    params: ({ context }: { context: DeathDetectionContext }) => ({
      date: context.environment!.today,
    }),
  },
  on: {
    REVERIFY: { target: 'done', actions: 'openIdentityVerification' },
    LATER: 'done',
  },
} as const;

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "deathDetection" was not provided`);
  });

export const deathDetectionMachine = setup({
  types: {
    context: {} as DeathDetectionContext,
    events: {} as DeathDetectionEvent,
  },
  actors: {
    findSuspectedUser: notProvided<SuspectedUser | null>('findSuspectedUser'),
    cancelSuspicion: notProvided<void, { userId: string }>('cancelSuspicion'),
    readIdentityStatus: notProvided<IdentityStatusAnswer>('readIdentityStatus'),
  },
  actions: {
    rememberShown: (_, _params: { date: string }) => undefined,
    /** Keeps the confirmation's shared data (deathConfirmationData) and opens the flow. */
    openDeathConfirmation: (_, _params: { suspect: SuspectedUser }) => undefined,
    openIdentityVerification: () => undefined,
    reportFailure: (_, _params: { step: string; error: unknown }) => undefined,
  },
  guards: {
    isCurrentUser: ({ context }, suspect: SuspectedUser | null) =>
      suspect !== null && suspect.userId === context.environment?.currentUserId,
    /** Someone else's suspicion, no modal shown yet today, inside the app. */
    mustReadStatus: ({ context }, suspect: SuspectedUser | null) =>
      modalDue(context, suspect) && context.environment?.inApp === true,
    /** Someone else's suspicion, no modal shown yet today, in a plain browser. */
    mustShowModal: ({ context }, suspect: SuspectedUser | null) => modalDue(context, suspect),
    inApp: ({ context }) => context.environment?.inApp === true,
    isActive: (_, answer: IdentityStatusAnswer) => answer.authStatus === ACTIVE_AUTH_STATUS,
    neverVerified: (_, answer: IdentityStatusAnswer) => answer.authStatus === 'INITIAL',
    inProgress: (_, answer: IdentityStatusAnswer) => answer.authStatus === 'PROGRESS',
    revoked: (_, answer: IdentityStatusAnswer) =>
      answer.authStatus === 'REVOKED' && answer.revokedReason === 'revoked',
  },
}).createMachine({
  id: 'deathDetection',
  context: { environment: null, suspect: null },
  initial: 'waitingForLoad',
  states: {
    waitingForLoad: {
      on: {
        LOADED: {
          target: 'checking',
          actions: assign({
            environment: ({ event }) => ({
              currentUserId: event.currentUserId,
              inApp: event.inApp,
              today: event.today,
              lastShownDate: event.lastShownDate,
            }),
          }),
        },
      },
    },
    checking: {
      invoke: {
        id: 'findSuspectedUser',
        src: 'findSuspectedUser',
        onDone: [
          {
            guard: { type: 'isCurrentUser', params: ({ event }) => event.output },
            target: 'cancelling',
            actions: assign({ suspect: ({ event }) => event.output }),
          },
          {
            guard: { type: 'mustReadStatus', params: ({ event }) => event.output },
            target: 'readingIdentityStatus',
            actions: assign({ suspect: ({ event }) => event.output }),
          },
          {
            guard: { type: 'mustShowModal', params: ({ event }) => event.output },
            target: 'deathModal',
            actions: assign({ suspect: ({ event }) => event.output }),
          },
          { target: 'done' },
        ],
        onError: {
          target: 'done',
          actions: {
            type: 'reportFailure',
            params: ({ event }) => ({ step: 'findSuspectedUser', error: event.error }),
          },
        },
      },
    },
    cancelling: {
      invoke: {
        id: 'cancelSuspicion',
        src: 'cancelSuspicion',
        input: ({ context }) => ({ userId: context.suspect!.userId }),
        onDone: 'done',
        onError: {
          target: 'done',
          actions: {
            type: 'reportFailure',
            params: ({ event }) => ({ step: 'cancelSuspicion', error: event.error }),
          },
        },
      },
    },
    readingIdentityStatus: {
      invoke: {
        id: 'readIdentityStatus',
        src: 'readIdentityStatus',
        onDone: [
          {
            guard: { type: 'isActive', params: ({ event }) => event.output },
            target: 'deathModal',
          },
          {
            guard: { type: 'neverVerified', params: ({ event }) => event.output },
            target: 'unverifiedModal',
          },
          {
            guard: { type: 'inProgress', params: ({ event }) => event.output },
            target: 'progressModal',
          },
          {
            guard: { type: 'revoked', params: ({ event }) => event.output },
            target: 'revokedModal',
          },
          // REVOKED because it expired, or a status this client does not know yet.
          { target: 'expiredModal' },
        ],
        // A failed status read is logged only: the flow goes on without it.
        onError: {
          target: 'done',
          actions: {
            type: 'reportFailure',
            params: ({ event }) => ({ step: 'readIdentityStatus', error: event.error }),
          },
        },
      },
    },
    deathModal: {
      entry: {
        type: 'rememberShown',
        params: ({ context }) => ({ date: context.environment!.today }),
      },
      on: {
        START_CONFIRMATION: {
          guard: 'inApp',
          target: 'done',
          actions: {
            type: 'openDeathConfirmation',
            params: ({ context }) => ({ suspect: context.suspect! }),
          },
        },
        CLOSE: 'done',
      },
    },
    unverifiedModal: identityModal,
    progressModal: identityModal,
    expiredModal: identityModal,
    revokedModal: identityModal,
    done: { type: 'final' },
  },
});
