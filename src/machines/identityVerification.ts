import { assign, fromPromise, setup } from 'xstate';

/**
 * /identity-verification (status INITIAL, PROGRESS, ACTIVE, REVOKED; transitions as
 * the server defines them, docs/death-detection.md). `loadStatus` reads the member's status
 * and asks the app, through the bridge's check status, whether it is there (`appPresent`).
 * In the app, a member who is not ACTIVE starts the certificate registration: the server's
 * challenge, the bridge's certificate registration, the certificate posted to the server.
 * A plain browser (or an app that turns out absent) gets the web alternative, `needsApp`:
 * it explains that the app is needed, with the store links. A failed registration shows an
 * error toast (`notifyRegistrationFailure`) and reads the status again.
 */
export type AuthStatus = 'INITIAL' | 'PROGRESS' | 'ACTIVE' | 'REVOKED';

export interface LoadedStatus {
  authStatus: AuthStatus;
  /** The certificate's expiry, when there is one. */
  notAfter: string | null;
  revokedReason: 'expired' | 'revoked' | null;
  appPresent: boolean;
}

export interface IdentityVerificationContext {
  status: LoadedStatus | null;
}

export type IdentityVerificationEvent = { type: 'START' } | { type: 'RETRY' };

/** How the registration actor says that the app was not there after all. */
export class AppAbsentError extends Error {
  constructor() {
    super('the native bridge is absent');
    this.name = 'AppAbsentError';
  }
}

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "identityVerification" was not provided`);
  });

export const identityVerificationMachine = setup({
  types: {
    context: {} as IdentityVerificationContext,
    events: {} as IdentityVerificationEvent,
  },
  actors: {
    loadStatus: notProvided<LoadedStatus>('loadStatus'),
    registerCertificate: notProvided<void>('registerCertificate'),
  },
  actions: {
    notifyRegistrationFailure: (_, _params: { error: unknown }) => undefined,
    reportLoadFailure: (_, _params: { error: unknown }) => undefined,
  },
  guards: {
    isActive: (_, status: LoadedStatus) => status.authStatus === 'ACTIVE',
    appAbsent: (_, status: LoadedStatus) => !status.appPresent,
    isProgress: (_, status: LoadedStatus) => status.authStatus === 'PROGRESS',
    isRevoked: (_, status: LoadedStatus) => status.authStatus === 'REVOKED',
    appPresent: ({ context }) => context.status!.appPresent,
    isAppAbsentError: ({ event }) => (event as { error?: unknown }).error instanceof AppAbsentError,
  },
}).createMachine({
  id: 'identityVerification',
  context: { status: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          {
            guard: { type: 'isActive', params: ({ event }) => event.output },
            target: 'ACTIVE',
            actions: assign({ status: ({ event }) => event.output }),
          },
          {
            guard: { type: 'appAbsent', params: ({ event }) => event.output },
            target: 'needsApp',
            actions: assign({ status: ({ event }) => event.output }),
          },
          {
            guard: { type: 'isProgress', params: ({ event }) => event.output },
            target: 'PROGRESS',
            actions: assign({ status: ({ event }) => event.output }),
          },
          {
            guard: { type: 'isRevoked', params: ({ event }) => event.output },
            target: 'REVOKED',
            actions: assign({ status: ({ event }) => event.output }),
          },
          { target: 'INITIAL', actions: assign({ status: ({ event }) => event.output }) },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    INITIAL: { on: { START: 'registering' } },
    /** A registration was started (a challenge is open) but no certificate arrived yet. */
    PROGRESS: { on: { START: 'registering' } },
    REVOKED: { on: { START: 'registering' } },
    /**
     * A new device may register again, inside the app (a plain browser is offered nothing):
     * the new certificate replaces the old one.
     */
    ACTIVE: { on: { START: { guard: 'appPresent', target: 'registering' } } },
    needsApp: {},
    registering: {
      invoke: {
        id: 'registerCertificate',
        src: 'registerCertificate',
        onDone: 'loading',
        onError: [
          {
            guard: 'isAppAbsentError',
            target: 'needsApp',
          },
          {
            target: 'loading',
            actions: {
              type: 'notifyRegistrationFailure',
              params: ({ event }) => ({ error: event.error }),
            },
          },
        ],
      },
    },
    failed: { on: { RETRY: 'loading' } },
  },
});
