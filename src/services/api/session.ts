/**
 * The session layer `/api/auth/*` (NextAuth REST protocol shapes, docs/client-auth.md).
 * These calls go through `fetch` with the session cookie, not through the `/v1` axios
 * client: the session layer is not the product API, and the token refresh must be able to
 * store new tokens while axios-auth-refresh holds every `/v1` request back.
 */

import type { ProviderAnswer } from '../../../contract/auth';
import type { AuthSession, SessionUpdate, WireSession } from '../../../contract/sessionLayer';

/** A failed session-layer call, with the HTTP status and the protocol's error code. */
export class SessionError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`session layer: ${status} ${code}`);
    this.name = 'SessionError';
  }
}

export function fromWire(wire: WireSession | null | Record<string, never>): AuthSession | null {
  if (!wire || !('user' in wire) || !wire.user) return null;
  const { accessToken, ...user } = wire.user;
  return {
    user: {
      id: user.id,
      username: user.username,
      memorialPageId: user.memorialPageId,
      iconUrl: user.iconUrl,
    },
    accessToken,
    expires: wire.expires,
  };
}

async function readJson<T>(response: Response): Promise<T> {
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { code?: string };
    throw new SessionError(response.status, body.code ?? 'CLIENT_FETCH_ERROR');
  }
  return (await response.json()) as T;
}

/** Why a sign-in failed, as the session layer tells it (`code` of its error url). */
export type SignInErrorCode =
  | 'invalid_credentials'
  | 'too_many_attempts'
  | 'account_locked'
  | 'account_memorialized'
  | 'unexpected';

/** What the login form sends: the unlock link's token when the form was opened from one. */
export interface SignInCredentials {
  username: string;
  password: string;
  unlockToken?: string;
}

/** The protocol's sign-in result: error, status, ok, url. */
export interface SignInResult {
  ok: boolean;
  status: number;
  url: string | null;
  error: SignInErrorCode | null;
  /** With `account_memorialized`: when the member's death was confirmed (ISO instant). */
  memorializedSince: string | null;
}

const SIGN_IN_ERROR_CODES: readonly SignInErrorCode[] = [
  'invalid_credentials',
  'too_many_attempts',
  'account_locked',
  'account_memorialized',
  'unexpected',
];

/** The failure named by a sign-in answer's url (`?error=…&code=…`), or null for success. */
export function signInErrorOf(url: string | null): SignInErrorCode | null {
  if (!url) return 'unexpected';
  const params = new URL(url, 'http://localhost').searchParams;
  if (!params.has('error')) return null;
  const code = params.get('code') as SignInErrorCode | null;
  return code && SIGN_IN_ERROR_CODES.includes(code) ? code : 'unexpected';
}

/**
 * The session-layer calls against `origin` (the app's own by default) with `fetchImpl`
 * (the browser's, which sends the session cookie; tests give one that keeps cookies).
 */
export function createSessionApi({
  origin = '',
  fetchImpl = (input, init) => fetch(input, init),
}: { origin?: string; fetchImpl?: typeof fetch } = {}) {
  const call = (path: string, init: RequestInit = {}) =>
    fetchImpl(`${origin}/api/auth${path}`, {
      credentials: 'same-origin',
      ...init,
      headers: { accept: 'application/json', ...init.headers },
    });

  const formPost = (path: string, fields: Record<string, string>) =>
    call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  /** GET /api/auth/csrf: the double-submit token every session POST carries. */
  const csrfToken = async () =>
    (await readJson<{ csrfToken: string }>(await call('/csrf'))).csrfToken;

  return {
    /** GET /api/auth/session: the session, or null when signed out. */
    fetchSession: async (): Promise<AuthSession | null> =>
      fromWire(await readJson<WireSession | null>(await call('/session'))),

    /** POST /api/auth/callback/credentials: email and password; sets the session cookie. */
    signInWithCredentials: async (
      { unlockToken, ...credentials }: SignInCredentials,
      callbackUrl: string,
    ): Promise<SignInResult> => {
      const response = await formPost('/callback/credentials', {
        ...credentials,
        ...(unlockToken ? { unlockToken } : {}),
        csrfToken: await csrfToken(),
        callbackUrl,
        json: 'true',
      });
      const body = (await response.json().catch(() => ({}))) as { url?: string };
      const url = body.url ?? null;
      // Over the session layer's own rate limit the answer is a plain 429 without a URL.
      const error =
        response.status === 429
          ? 'too_many_attempts'
          : response.ok
            ? signInErrorOf(url)
            : (signInErrorOf(url) ?? 'unexpected');
      const memorializedSince =
        error === 'account_memorialized' && url
          ? new URL(url, 'http://localhost').searchParams.get('since')
          : null;
      return { ok: response.ok && !error, status: response.status, url, error, memorializedSince };
    },

    /**
     * POST /api/auth/callback/activation: spends the registration mail's link and sets the
     * session cookie of the new member; rejects with a SessionError when the link is not valid.
     */
    signInWithActivation: async (
      {
        password,
        assertion,
        ...link
      }: { token: string; email: string; password?: string; assertion?: string },
      callbackUrl: string,
    ): Promise<void> => {
      const response = await formPost('/callback/activation', {
        ...link,
        ...(password === undefined ? {} : { password }),
        ...(assertion === undefined ? {} : { assertion }),
        csrfToken: await csrfToken(),
        callbackUrl,
        json: 'true',
      });
      await readJson<{ url: string }>(response);
    },

    /** GET /api/auth/providers: credentials plus each configured social provider. */
    fetchProviders: async (): Promise<ProviderAnswer[]> =>
      Object.values(await readJson<Record<string, ProviderAnswer>>(await call('/providers'))),

    /** POST /api/auth/signin/{provider}: the provider's authorisation URL to go to. */
    signInWithProvider: async (provider: string, callbackUrl: string): Promise<string> => {
      const response = await formPost(`/signin/${encodeURIComponent(provider)}`, {
        csrfToken: await csrfToken(),
        callbackUrl,
        json: 'true',
      });
      return (await readJson<{ url: string }>(response)).url;
    },

    /** POST /api/auth/signout: clears the cookie and revokes the refresh family. */
    signOut: async (callbackUrl: string): Promise<void> => {
      const response = await formPost('/signout', {
        csrfToken: await csrfToken(),
        callbackUrl,
        json: 'true',
      });
      await readJson<{ url: string }>(response);
    },

    /** POST /api/auth/session: stores new tokens or profile data in the session cookie. */
    updateSession: async (data: SessionUpdate): Promise<AuthSession | null> => {
      const response = await call('/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ csrfToken: await csrfToken(), data }),
      });
      return fromWire(await readJson<WireSession | null>(response));
    },

    /**
     * POST /api/auth/refresh: the server spends the refresh token of the cookie, stores its
     * successor there and answers the session with the new access token; a refusal rejects
     * with a SessionError of status 401.
     */
    refreshSession: async (): Promise<AuthSession | null> => {
      const response = await call('/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ csrfToken: await csrfToken() }),
      });
      return fromWire(await readJson<WireSession | null>(response));
    },

    /**
     * A session error of the client (codes CLIENT_FETCH_ERROR, CLIENT_SESSION_ERROR,
     * SIGNOUT_ERROR): on the console, and to POST /api/auth/_log, which logs it with its
     * `code`. A SessionError's status and the server's code go along (a 404 of a missing
     * session-layer route arrives as MISSING_NEXTAUTH_API_ROUTE_ERROR). Never rejects.
     */
    logClientError: async (code: string, error: unknown): Promise<void> => {
      console.error(code, error);
      const details =
        error instanceof SessionError
          ? { name: error.name, message: error.message, status: error.status, code: error.code }
          : error instanceof Error
            ? { name: error.name, message: error.message }
            : error;
      await call('/_log', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ level: 'error', code, details }),
      }).catch(() => undefined);
    },
  };
}

export type SessionApi = ReturnType<typeof createSessionApi>;

/** The app's own session layer. */
export const sessionApi = createSessionApi();
