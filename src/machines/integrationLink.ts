import { assign, fromPromise, setup } from 'xstate';

/**
 * Linking an external service (docs/death-detection.md, "External integration"): the service
 * sends the member to `/integration/link?client_id=…&fpos_user_id=…&expires=…&signature=…`
 * with its link proof (docs/integrations.md); the member, signed in, reads what linking means
 * and consents, the app calls `POST /v1/fpos/verify_my_auth_access_token` with their own
 * access token and the proof, and shows the linked state with a way to unlink at once.
 * `error` is a code the screen words in Japanese.
 */

/** What the service asks for: its client id, its own user id and its proof of asking. */
export interface IntegrationLinkRequest {
  clientId: string;
  fposUserId: string;
  /** The proof's expiry, Unix time in seconds. */
  expires: number;
  signature: string;
}

export interface IntegrationLinkContext extends IntegrationLinkRequest {
  error: string | null;
}

/** The link's query values as a request, or null when one is missing or malformed. */
export function linkRequestOf(query: {
  clientId: string | null;
  fposUserId: string | null;
  expires: string | null;
  signature: string | null;
}): IntegrationLinkRequest | null {
  const { clientId, fposUserId, expires, signature } = query;
  if (!clientId || !fposUserId) return null;
  if (!/^[0-9a-f]{64}$/.test(signature ?? '') || !/^[1-9][0-9]{0,15}$/.test(expires ?? ''))
    return null;
  return { clientId, fposUserId, expires: Number(expires), signature: signature! };
}

export type IntegrationLinkEvent =
  /** The screen opened with the link's query parameters (null: one is missing or malformed). */
  | { type: 'OPEN'; request: IntegrationLinkRequest | null }
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
    link: notProvided<void, IntegrationLinkRequest>('link'),
    unlink: notProvided<void, { clientId: string }>('unlink'),
  },
}).createMachine({
  id: 'integrationLink',
  context: { clientId: '', fposUserId: '', expires: 0, signature: '', error: null },
  initial: 'opening',
  states: {
    opening: {
      on: {
        // A link without both ids and the proof cannot be made: the service sent the member
        // here wrongly.
        OPEN: [
          {
            guard: ({ event }) => event.request !== null,
            target: 'consenting',
            actions: assign(({ event }) => ({ ...event.request! })),
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
        input: ({ context }) => ({
          clientId: context.clientId,
          fposUserId: context.fposUserId,
          expires: context.expires,
          signature: context.signature,
        }),
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
