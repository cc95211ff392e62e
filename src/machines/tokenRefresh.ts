import { assign, setup } from 'xstate';
import { notProvided } from './notProvided';

/**
 * One token refresh (spec §4 "Token handling"): spend the refresh token at POST /v1/refresh,
 * then store the rotated pair in the session cookie. It first reads the cookie: when another
 * tab has rotated the pair already, spending our spent token again would count as reuse and
 * revoke the family, so the stored pair is taken instead. The authSession machine invokes it,
 * one at a time, so concurrent 401s share a single refresh (and logs out without invoking
 * it when there is no refresh token); the HTTP client retries each call once afterwards and
 * never refreshes for the login or refresh calls themselves.
 *
 * Outcomes (the machine's output):
 * - `refreshed` with the new tokens;
 * - `loggedOut` when the server refuses the refresh token (401/403);
 * - `failed` when the refresh could not be made (network, 5xx): the session stays.
 */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export type TokenRefreshOutput =
  | { outcome: 'refreshed'; tokens: TokenPair }
  | { outcome: 'loggedOut' }
  | { outcome: 'failed'; error: unknown };

export interface TokenRefreshInput {
  refreshToken: string;
}

interface TokenRefreshContext {
  refreshToken: string;
  result: TokenRefreshOutput | null;
}

/** The statuses by which the server refuses a refresh token. */
const REFUSED_STATUSES = [401, 403];

function statusOf(error: unknown): number | undefined {
  const response = (error as { response?: { status?: unknown } } | null)?.response;
  return typeof response?.status === 'number' ? response.status : undefined;
}

export const tokenRefreshMachine = setup({
  types: {
    context: {} as TokenRefreshContext,
    input: {} as TokenRefreshInput,
    output: {} as TokenRefreshOutput,
  },
  actors: {
    /** Reads the session cookie: another tab may have refreshed already. */
    readStoredTokens: notProvided<TokenPair | null>('tokenRefresh', 'readStoredTokens'),
    requestTokens: notProvided<TokenPair, { refreshToken: string }>(
      'tokenRefresh',
      'requestTokens',
    ),
    storeTokens: notProvided<void, TokenPair>('tokenRefresh', 'storeTokens'),
  },
  actions: {
    reportStoreFailure: (_, _params: { error: unknown }) => undefined,
  },
  guards: {
    /** The cookie holds a different refresh token: another tab rotated it, use theirs. */
    rotatedElsewhere: ({ context }, params: { stored: TokenPair | null }) =>
      params.stored !== null && params.stored.refreshToken !== context.refreshToken,
    refusedByServer: (_, params: { error: unknown }) =>
      REFUSED_STATUSES.includes(statusOf(params.error) ?? 0),
  },
}).createMachine({
  id: 'tokenRefresh',
  context: ({ input }) => ({ refreshToken: input.refreshToken, result: null }),
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
        input: ({ context }) => ({ refreshToken: context.refreshToken }),
        onDone: {
          target: 'storing',
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
    storing: {
      invoke: {
        id: 'storeTokens',
        src: 'storeTokens',
        input: ({ context }) =>
          (context.result as Extract<TokenRefreshOutput, { outcome: 'refreshed' }>).tokens,
        onDone: 'refreshed',
        // The new pair already works in memory; only a reload would miss it.
        onError: {
          target: 'refreshed',
          actions: { type: 'reportStoreFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    refreshed: { type: 'final' },
    loggedOut: { type: 'final' },
    failed: { type: 'final' },
  },
});
