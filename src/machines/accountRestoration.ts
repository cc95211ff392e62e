import { assign, fromPromise, setup } from 'xstate';
import type { AccountRestoration, RestorationLinkState } from '../../contract/deathDetection';

/**
 * Restoring an account whose death was confirmed by mistake (`/restore-account?token=`, from
 * the mail sent when such a member signs in; docs/death-detection.md, "A way back"). The
 * screen opens with the link's token, and, back from the provider round trip that proves the
 * link, its `assertion` (or `proof=failed` when that round trip failed before it came back).
 * The assertion is spent on the proof at once and leaves the address; then the link is read
 * for what it needs (the password, or a sign-in with the member's provider, or nothing once
 * proven), and the restoration is sent; its answer lists what had already been delivered.
 * A refusal of the link itself (used, expired, nothing to restore) ends the flow; a network
 * failure reading it may be retried; a failed restoration leaves the form as it was.
 * `failure`, `proofFailure` and `passwordError` are codes the screen words in Japanese.
 */

/** The refusals that end the flow: the link or the account leaves nothing to do. */
export const RESTORATION_REFUSALS = [
  'restoration_link_invalid',
  'nothing_to_restore',
  'restoration_identity_mismatch',
] as const;

/** The code a network failure, or any answer the screen does not word, is shown as. */
export const RESTORATION_FAILED = 'failed';

export interface AccountRestorationContext {
  token: string;
  /** The provider's assertion, until it is spent on the proof. */
  assertion: string | null;
  /** What the link needs, once read (or proven). */
  link: RestorationLinkState | null;
  password: string;
  passwordError: 'required' | 'password_incorrect' | null;
  /** A refusal (one of RESTORATION_REFUSALS) or RESTORATION_FAILED. */
  failure: string | null;
  /** Why the provider's proof did not hold: `restoration_identity_mismatch` or `proof_failed`. */
  proofFailure: 'restoration_identity_mismatch' | 'proof_failed' | null;
  restored: AccountRestoration | null;
}

export type AccountRestorationEvent =
  /** The screen opened with the address's token and, back from the provider, its outcome. */
  | { type: 'OPEN'; token: string; assertion: string | null; proofFailed: boolean }
  | { type: 'PASSWORD'; value: string }
  | { type: 'SUBMIT' }
  | { type: 'RETRY' };

/** An API error's `code` (machines keep codes, screens word them in Japanese), if it has one. */
const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** The error of an actor's failure, as a guard's parameter. */
const errorOf = ({ event }: { event: { error?: unknown } }) => event.error;

const isRefusal = (error: unknown) =>
  (RESTORATION_REFUSALS as readonly unknown[]).includes(codeOf(error));

/** The link (read by now) asks for the password: not proven by the provider, and the member has one. */
const needsPassword = (context: AccountRestorationContext) =>
  !context.link!.proven && context.link!.hasPassword;

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "accountRestoration" was not provided`);
  });

export const accountRestorationMachine = setup({
  types: {
    context: {} as AccountRestorationContext,
    events: {} as AccountRestorationEvent,
  },
  actors: {
    proveLink: notProvided<RestorationLinkState, { token: string; assertion: string }>('proveLink'),
    readLink: notProvided<RestorationLinkState, { token: string }>('readLink'),
    restore: notProvided<AccountRestoration, { token: string; password: string | undefined }>(
      'restore',
    ),
  },
  actions: {
    /** The assertion leaves the address (and the history) as soon as it is taken. */
    dropAssertionFromAddress: (_, _params: { token: string }) => undefined,
  },
  guards: {
    /** The address carries no token: it is not a restoration link. */
    noToken: (_, token: string) => token === '',
    /** Back from the provider with an assertion to prove the link. */
    hasAssertion: (_, assertion: string | null) => assertion !== null,
    isRefusal: (_, error: unknown) => isRefusal(error),
    /** The password sent was wrong (a proven link sends none: that answer is a failure). */
    passwordIncorrect: ({ context }, error: unknown) =>
      needsPassword(context) && codeOf(error) === 'password_incorrect',
    /** The link asks for the password and none was typed. */
    passwordMissing: ({ context }) => needsPassword(context) && context.password === '',
    /** Proven, or with a password to send: a link only a provider can prove has nothing yet. */
    canSend: ({ context }) => context.link!.proven || context.link!.hasPassword,
  },
}).createMachine({
  id: 'accountRestoration',
  context: {
    token: '',
    assertion: null,
    link: null,
    password: '',
    passwordError: null,
    failure: null,
    proofFailure: null,
    restored: null,
  },
  initial: 'opening',
  states: {
    opening: {
      on: {
        OPEN: [
          // No token: the address is not a restoration link.
          {
            guard: { type: 'noToken', params: ({ event }) => event.token },
            target: 'refused',
            actions: assign({ failure: 'restoration_link_invalid' }),
          },
          {
            guard: { type: 'hasAssertion', params: ({ event }) => event.assertion },
            target: 'proving',
            actions: assign(({ event }) => ({ token: event.token, assertion: event.assertion })),
          },
          {
            target: 'checking',
            actions: assign(({ event }) => ({
              token: event.token,
              proofFailure: event.proofFailed ? ('proof_failed' as const) : null,
            })),
          },
        ],
      },
    },
    proving: {
      entry: {
        type: 'dropAssertionFromAddress',
        params: ({ context }) => ({ token: context.token }),
      },
      invoke: {
        id: 'proveLink',
        src: 'proveLink',
        input: ({ context }) => ({ token: context.token, assertion: context.assertion! }),
        onDone: {
          target: 'ready',
          actions: assign({ link: ({ event }) => event.output, assertion: null }),
        },
        // The proof did not hold: the link is read for what it still needs.
        onError: {
          target: 'checking',
          actions: assign({
            assertion: null,
            proofFailure: ({ event }) =>
              codeOf(event.error) === 'restoration_identity_mismatch'
                ? ('restoration_identity_mismatch' as const)
                : ('proof_failed' as const),
          }),
        },
      },
    },
    checking: {
      invoke: {
        id: 'readLink',
        src: 'readLink',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'ready', actions: assign({ link: ({ event }) => event.output }) },
        onError: [
          {
            guard: { type: 'isRefusal', params: errorOf },
            target: 'refused',
            actions: assign({ failure: ({ event }) => codeOf(event.error) as string }),
          },
          { target: 'unreachable', actions: assign({ failure: RESTORATION_FAILED }) },
        ],
      },
    },
    /** The link could not be read (the network): the member may try again. */
    unreachable: {
      on: { RETRY: { target: 'checking', actions: assign({ failure: null }) } },
    },
    ready: {
      on: {
        PASSWORD: { actions: assign({ password: ({ event }) => event.value }) },
        SUBMIT: [
          {
            guard: 'passwordMissing',
            actions: assign({ passwordError: 'required' }),
          },
          // A link only a provider can prove, not proven yet, has nothing to send.
          {
            guard: 'canSend',
            target: 'restoring',
            actions: assign({ failure: null, passwordError: null }),
          },
        ],
      },
    },
    restoring: {
      invoke: {
        id: 'restore',
        src: 'restore',
        input: ({ context }) => ({
          token: context.token,
          password: needsPassword(context) ? context.password : undefined,
        }),
        onDone: { target: 'restored', actions: assign({ restored: ({ event }) => event.output }) },
        onError: [
          {
            guard: { type: 'passwordIncorrect', params: errorOf },
            target: 'ready',
            actions: assign({ passwordError: 'password_incorrect' }),
          },
          {
            guard: { type: 'isRefusal', params: errorOf },
            target: 'refused',
            actions: assign({ failure: ({ event }) => codeOf(event.error) as string }),
          },
          { target: 'ready', actions: assign({ failure: RESTORATION_FAILED }) },
        ],
      },
    },
    /** The link or the account leaves nothing to do: the screen says why. */
    refused: { type: 'final' },
    restored: { type: 'final' },
  },
});
