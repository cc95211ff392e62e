import { assign, fromPromise, setup } from 'xstate';

/**
 * Linking an external service (docs/death-detection.md, "External integration"): the service
 * sends the member to `/integration/link?client_id=…&fpos_user_id=…`; the member, signed in,
 * reads what linking means and consents, the app calls `POST /v1/fpos/verify_my_auth_access_token`
 * with their own access token, and shows the linked state with a way to unlink at once.
 * `error` is a code the screen words in Japanese.
 */

export interface IntegrationLinkContext {
  clientId: string;
  fposUserId: string;
  error: string | null;
}

export type IntegrationLinkEvent =
  /** The screen opened with the link's query parameters. */
  | { type: 'OPEN'; clientId: string | null; fposUserId: string | null }
  | { type: 'CONSENT' }
  | { type: 'DECLINE' }
  | { type: 'UNLINK' };

/** An API error's `code`, or `fallback`: machines keep codes, screens word them in Japanese. */
const codeOf = (error: unknown, fallback: string): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : fallback;
};

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "integrationLink" was not provided`);
  });

export const integrationLinkMachine = setup({
  types: {
    context: {} as IntegrationLinkContext,
    events: {} as IntegrationLinkEvent,
  },
  actors: {
    link: notProvided<void, { clientId: string; fposUserId: string }>('link'),
    unlink: notProvided<void, { clientId: string }>('unlink'),
  },
}).createMachine({
  id: 'integrationLink',
  context: { clientId: '', fposUserId: '', error: null },
  initial: 'opening',
  states: {
    opening: {
      on: {
        // A link without both ids cannot be made: the service sent the member here wrongly.
        OPEN: [
          {
            guard: ({ event }) => Boolean(event.clientId && event.fposUserId),
            target: 'consenting',
            actions: assign({
              clientId: ({ event }) => event.clientId!,
              fposUserId: ({ event }) => event.fposUserId!,
            }),
          },
          { target: 'invalid' },
        ],
      },
    },
    invalid: { type: 'final' },
    consenting: {
      on: { CONSENT: 'linking', DECLINE: 'declined' },
    },
    linking: {
      invoke: {
        id: 'link',
        src: 'link',
        input: ({ context }) => ({ clientId: context.clientId, fposUserId: context.fposUserId }),
        onDone: { target: 'linked', actions: assign({ error: null }) },
        onError: {
          target: 'consenting',
          actions: assign({ error: ({ event }) => codeOf(event.error, 'link_failed') }),
        },
      },
    },
    linked: { on: { UNLINK: 'unlinking' } },
    unlinking: {
      invoke: {
        id: 'unlink',
        src: 'unlink',
        input: ({ context }) => ({ clientId: context.clientId }),
        onDone: { target: 'unlinked', actions: assign({ error: null }) },
        onError: { target: 'linked', actions: assign({ error: 'unlink_failed' }) },
      },
    },
    unlinked: { type: 'final' },
    declined: { type: 'final' },
  },
});
