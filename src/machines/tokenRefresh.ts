import { assign, fromPromise, setup } from 'xstate';

/**
 * One token refresh. The refresh token never reaches page script:
 * the session layer spends the one in the httpOnly cookie and stores its successor there,
 * answering the new access token. It first reads the cookie: when another tab has refreshed
 * already (the cookie's access token is not the one in hand), spending the cookie's token
 * again is needless, so the stored token is taken instead. The authSession machine invokes
 * it, one at a time, so concurrent 401s share a single refresh; the HTTP client retries each
 * call once afterwards and never refreshes for the login or refresh calls themselves.
 *
 * Outcomes (the machine's output):
 * - `refreshed` with the new access token;
 * - `loggedOut` when the server refuses the refresh (401/403: no session, spent, expired);
 * - `failed` when the refresh could not be made (network, 5xx): the session stays.
 */
export interface RefreshedTokens {
  accessToken: string;
}

export type TokenRefreshOutput =
  | { outcome: 'refreshed'; tokens: RefreshedTokens }
  | { outcome: 'loggedOut' }
  | { outcome: 'failed'; error: unknown };

export interface TokenRefreshInput {
  /** The access token the failed call carried. */
  accessToken: string;
}

interface TokenRefreshContext {
  accessToken: string;
  result: TokenRefreshOutput | null;
}

/** The statuses by which the server refuses a refresh. */
const REFUSED_STATUSES = [401, 403];

/** The HTTP status of a failed call: axios's `response.status` or the session layer's `status`. */
function statusOf(error: unknown): number | undefined {
  const failure = error as { status?: unknown; response?: { status?: unknown } } | null;
  const status = failure?.response?.status ?? failure?.status;
  return typeof status === 'number' ? status : undefined;
}

/** The default of an effect until the app provides it: it fails, naming itself and the machine. */
const notProvided = <TOutput, TInput = undefined>(actor: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The actor "${actor}" of the machine "tokenRefresh" was not provided`);
  });

export const tokenRefreshMachine = setup({
  types: {
    context: {} as TokenRefreshContext,
    input: {} as TokenRefreshInput,
    output: {} as TokenRefreshOutput,
  },
  actors: {
    /** Reads the session cookie: another tab may have refreshed already. */
    readStoredTokens: notProvided<RefreshedTokens | null>('readStoredTokens'),
    /** Refreshes the session the cookie holds and answers its new access token. */
    requestTokens: notProvided<RefreshedTokens>('requestTokens'),
  },
  guards: {
    /** The cookie holds a different access token: another tab refreshed, use theirs. */
    rotatedElsewhere: ({ context }, params: { stored: RefreshedTokens | null }) =>
      params.stored !== null && params.stored.accessToken !== context.accessToken,
    refusedByServer: (_, params: { error: unknown }) =>
      REFUSED_STATUSES.includes(statusOf(params.error) ?? 0),
  },
}).createMachine({
  id: 'tokenRefresh',
  context: ({ input }) => ({ accessToken: input.accessToken, result: null }),
  initial: 'checkingStored',
  output: ({ context }) => context.result!,
  states: {
    checkingStored: {
      invoke: {
        id: 'readStoredTokens',
        src: 'readStoredTokens',
        onDone: [
          {
            guard: {
              type: 'rotatedElsewhere',
              params: ({ event }) => ({ stored: event.output }),
            },
            target: 'refreshed',
            actions: assign({
              result: ({ event }) => ({ outcome: 'refreshed', tokens: event.output! }) as const,
            }),
          },
          { target: 'requesting' },
        ],
        // Unreadable cookie: refreshing is still right.
        onError: 'requesting',
      },
    },
    requesting: {
      invoke: {
        id: 'requestTokens',
        src: 'requestTokens',
        onDone: {
          target: 'refreshed',
          actions: assign({
            result: ({ event }) => ({ outcome: 'refreshed', tokens: event.output }) as const,
          }),
        },
        onError: [
          {
            guard: { type: 'refusedByServer', params: ({ event }) => ({ error: event.error }) },
            target: 'loggedOut',
            actions: assign({ result: { outcome: 'loggedOut' } as const }),
          },
          {
            target: 'failed',
            actions: assign({
              result: ({ event }) => ({ outcome: 'failed', error: event.error }) as const,
            }),
          },
        ],
      },
    },
    refreshed: { type: 'final' },
    loggedOut: { type: 'final' },
    failed: { type: 'final' },
  },
});
