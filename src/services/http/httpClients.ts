import axios, {
  AxiosError,
  AxiosHeaders,
  type AxiosInstance,
  type InternalAxiosRequestConfig,
} from 'axios';
import { createAuthRefresh } from 'axios-auth-refresh';
import { toCamelCase, toSnakeCase } from './casing';
import { isRateLimitedAnswer, notifyRateLimited } from './rateLimitNotice';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Set on the login call and (by axios-auth-refresh) on retries: a 401 starts no refresh. */
    skipAuthRefresh?: boolean;
    /** false: the call carries no bearer token (signed-URL call, external-provider sign-up). */
    authenticate?: boolean;
  }
}

/** How a refresh asked of the session ended. */
export type RefreshOutcome =
  | { ok: true }
  /** `loggedOut`: the refresh token was refused (401/403) or missing, the session is gone. */
  | { ok: false; loggedOut: boolean; error?: unknown };

/** What the HTTP client needs from the session (src/services/session connects it). */
export interface HttpSession {
  /** The bearer token for the next call; waits while the session is still loading. */
  accessToken(): Promise<string | undefined>;
  /** Refreshes the tokens; concurrent callers share the one refresh in flight. */
  refresh(): Promise<RefreshOutcome>;
  /** A call failed for want of authorisation (401 that no refresh cured): `path` is its path. */
  authorisationFailed(path: string): void;
}

/** Calls that are themselves the credentials: a 401 there is an answer, not an expired token. */
const TOKEN_ENDPOINTS = ['/v1/login', '/v1/refresh'];

/** The path of a call (`/v1/...`) whatever base URL it was made against. */
export function callPath(config: { url?: string; baseURL?: string } | undefined): string {
  if (!config?.url) return '';
  return new URL(config.url, config.baseURL ?? 'http://localhost').pathname;
}

function isTokenEndpoint(config: InternalAxiosRequestConfig | undefined): boolean {
  return TOKEN_ENDPOINTS.includes(callPath(config));
}

/**
 * A call sent without the bearer (`authenticate: false`) says nothing about the session: its
 * 401 is the caller's answer, neither a token to refresh nor a reason to sign out.
 */
function carriedSession(config: InternalAxiosRequestConfig | undefined): boolean {
  return config?.authenticate !== false;
}

function sendsBodyAsIs(data: unknown): boolean {
  return (
    typeof data === 'string' ||
    data instanceof URLSearchParams ||
    (typeof FormData !== 'undefined' && data instanceof FormData) ||
    (typeof Blob !== 'undefined' && data instanceof Blob)
  );
}

/**
 * Queued calls of a refresh that failed reject as CanceledError (axios-auth-refresh):
 * they are not failures to show the user, the session outcome already speaks for them.
 */
export function isQuietHttpError(error: unknown): boolean {
  return axios.isCancel(error);
}

/**
 * Failures the session has already answered, so a screen need not log them: the quiet ones,
 * and a 401 that no refresh cured (the visitor is signed out and sent to /login).
 */
export function isHandledBySession(error: unknown): boolean {
  return isQuietHttpError(error) || (error instanceof AxiosError && error.response?.status === 401);
}

/** An axios instance that speaks the wire's casing: snake_case out, camelCase in. */
function createWireClient(baseURL: string | undefined): AxiosInstance {
  const client = axios.create({ baseURL, headers: { accept: 'application/json' } });
  client.interceptors.request.use((config) => {
    if (config.data !== undefined && !sendsBodyAsIs(config.data)) {
      config.data = toSnakeCase(config.data);
    }
    if (config.params) config.params = toSnakeCase(config.params);
    return config;
  });
  client.interceptors.response.use(
    (response) => {
      response.data = toCamelCase(response.data);
      return response;
    },
    (error: unknown) => {
      if (error instanceof AxiosError && error.response) {
        error.response.data = toCamelCase(error.response.data);
      }
      return Promise.reject(error);
    },
  );
  return client;
}

export interface HttpClients {
  /**
   * The one instance every product-API call goes through. The browser's refresh is not one
   * of them: it goes to the session layer (`fetch`), which axios-auth-refresh does not hold.
   */
  http: AxiosInstance;
}

/**
 * The product API's client: snake_case out, camelCase in, the bearer token
 * attached, and on a 401 one shared refresh and one retry.
 */
export function createHttpClients({
  baseURL,
  session,
}: {
  baseURL?: string;
  session: HttpSession;
}): HttpClients {
  const http = createWireClient(baseURL);
  /** Errors already reported to the session, so a retried call's 401 is not reported twice. */
  const reported = new WeakSet<object>();

  http.interceptors.request.use(async (config) => {
    if (config.authenticate !== false) {
      // Read at send time, so a retry after a refresh carries the new token.
      const token = await session.accessToken();
      const headers = AxiosHeaders.from(config.headers);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      else headers.delete('Authorization');
      config.headers = headers;
    }
    return config;
  });

  createAuthRefresh(
    http,
    async (failed: AxiosError) => {
      const outcome = await session.refresh();
      if (outcome.ok) return;
      // A refused or missing refresh token: the caller sees its own 401. A refresh that
      // failed otherwise (network, 5xx) passes that failure on and keeps the session.
      throw outcome.loggedOut ? failed : (outcome.error ?? failed);
    },
    {
      // deduplicateRefresh: false retries every call whose 401 arrives during the refresh
      // (with true they are rejected); the session keeps the refresh single-flight.
      deduplicateRefresh: false,
      shouldRefresh: (error) =>
        error.response?.status === 401 &&
        !isTokenEndpoint(error.config) &&
        carriedSession(error.config),
    },
  );

  http.interceptors.response.use(undefined, (error: unknown) => {
    if (
      error instanceof AxiosError &&
      isRateLimitedAnswer(error.response?.status, error.response?.data)
    ) {
      notifyRateLimited();
    }
    if (
      error instanceof AxiosError &&
      error.response?.status === 401 &&
      !isTokenEndpoint(error.config) &&
      carriedSession(error.config) &&
      !reported.has(error)
    ) {
      reported.add(error);
      session.authorisationFailed(callPath(error.config));
    }
    return Promise.reject(error);
  });

  return { http };
}
