import { z } from 'zod';
import { timestamp, userId } from './common';
import { endpoint, errorBody, noBody, named } from './endpoint';
import sample from './examples.json';

/**
 * The session layer `/api/auth/*` (docs/client-auth.md) in the shapes of the NextAuth REST
 * protocol: its form fields and answers are the protocol's own camelCase names, not the
 * product API's snake_case. Every route is under the `auth` rate limit; every POST carries
 * the CSRF double-submit token (403 without it).
 */

const TAG = 'Session';

const FORM = ['application/x-www-form-urlencoded', 'application/json'];

/** The form fields every session-layer POST carries (`json` is the protocol's answer flag). */
export const callbackForm = z.object({
  csrfToken: z.string().max(200).optional(),
  callbackUrl: z.string().max(2000).optional(),
  json: z.string().max(10).optional(),
});

const callbackExample = {
  csrfToken: '5d2a4c779a513f0e…',
  callbackUrl: 'https://shinobu.example/home',
  json: 'true',
};

const credentialsForm = callbackForm
  .extend({
    username: z.string().max(1000).optional(),
    password: z.string().max(1000).optional(),
    /** The token of a mailed unlock link. */
    unlockToken: z.string().max(200).optional(),
  })
  .meta({
    examples: [
      { ...callbackExample, username: 'taro@example.com', password: 'correct horse battery' },
    ],
  });

/** The activation link's token and address, carried from /activate (the mail's link). */
const activationForm = callbackForm
  .extend({
    token: z.string().max(200),
    email: z.string().max(254),
    /** The password chosen when registering; a registration with a password needs it. */
    password: z.string().max(1000).optional(),
    /** A registration through a provider: the assertion of a new sign-in from the link's page. */
    assertion: z.string().max(4096).optional(),
  })
  .meta({
    examples: [{ ...callbackExample, token: 'c1f0e8d2b6a14…', email: 'taro@example.com' }],
  });

const sessionUpdate = z
  .object({
    csrfToken: z.string().max(200).optional(),
    data: z
      .object({
        accessToken: z.string().max(4096).optional(),
        refreshToken: z.string().max(200).optional(),
        username: z.string().max(50).optional(),
        iconUrl: z.string().max(4096).nullable().optional(),
      })
      .optional(),
  })
  .meta({ examples: [{ csrfToken: '5d2a4c779a513f0e…', data: { username: sample.username } }] });

export type SessionUpdateBody = z.infer<typeof sessionUpdate>;

/** The member a session is for. */
export const sessionUser = z.object({
  id: userId,
  username: z.string(),
  memorialPageId: z.string().nullable(),
  iconUrl: z.string().nullable(),
});

/**
 * A session as page script sees it (the NextAuth REST shape): the member and the `/v1`
 * access token. The refresh token stays in the httpOnly cookie.
 */
export const sessionAnswer = z
  .object({
    user: sessionUser.extend({ accessToken: z.string() }),
    /** When the session cookie expires. */
    expires: timestamp,
  })
  .meta({
    id: 'Session',
    examples: [
      {
        user: {
          id: '0b9f3c1e-5d2a-4c77-9a51-3f0e8d2b6a14',
          username: sample.username,
          memorialPageId: null,
          iconUrl: null,
          accessToken: 'eyJhbGciOiJIUzI1NiJ9…',
        },
        expires: '2026-12-25T09:30:00.000Z',
      },
    ],
  });

export type SessionAnswer = z.infer<typeof sessionAnswer>;

/** Where the browser goes next; a failed sign-in's carries `?error=…&code=…`. */
const urlAnswer = z
  .object({ url: z.string() })
  .meta({ examples: [{ url: 'https://shinobu.example/home' }] });

export const PROVIDER_TYPES = ['credentials', 'oauth', 'email'] as const;

/** One sign-in way of GET /api/auth/providers. */
export const providerAnswer = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(PROVIDER_TYPES),
  signinUrl: z.string(),
  callbackUrl: z.string(),
});

export type ProviderAnswer = z.infer<typeof providerAnswer>;

const pageQuery = z.object({
  error: z.string().max(100).optional(),
  code: z.string().max(100).optional(),
  /** With `account_memorialized`: when the member's death was confirmed (ISO instant). */
  since: z.string().max(40).optional(),
  callbackUrl: z.string().max(2000).optional(),
});

const providerParams = z.object({ provider: z.string().max(50) });

const redirect = { 302: noBody };

export const authEndpoints = named({
  csrfToken: endpoint({
    method: 'GET',
    path: '/api/auth/csrf',
    summary: 'The CSRF token every session-layer POST carries (sets its cookie)',
    tag: TAG,
    caller: 'public',
    responses: { 200: z.object({ csrfToken: z.string() }) },
    rateLimited: true,
  }),
  signInWithCredentials: endpoint({
    method: 'POST',
    path: '/api/auth/callback/credentials',
    summary:
      'Signs in with e-mail and password and sets the session cookie; a failure answers 401 with the error page URL',
    tag: TAG,
    caller: 'public',
    body: credentialsForm,
    consumes: FORM,
    responses: { 200: urlAnswer, 400: errorBody, 401: urlAnswer, 403: errorBody },
    rateLimited: true,
  }),
  activateAndSignIn: endpoint({
    method: 'POST',
    path: '/api/auth/callback/activation',
    summary:
      'Activates the account of a mailed activation link and sets the session cookie: the new member arrives signed in',
    tag: TAG,
    caller: 'public',
    body: activationForm,
    consumes: FORM,
    responses: { 200: urlAnswer, 400: errorBody, 403: errorBody, 404: errorBody, 410: errorBody },
    rateLimited: true,
  }),
  readSession: endpoint({
    method: 'GET',
    path: '/api/auth/session',
    summary: 'The session, or null when signed out',
    tag: TAG,
    caller: 'public',
    responses: { 200: sessionAnswer.nullable() },
    rateLimited: true,
  }),
  updateSession: endpoint({
    method: 'POST',
    path: '/api/auth/session',
    summary: 'Stores new tokens or profile data in the session cookie; null when signed out',
    tag: TAG,
    caller: 'public',
    body: sessionUpdate,
    responses: { 200: sessionAnswer.nullable(), 400: errorBody, 403: errorBody },
    rateLimited: true,
  }),
  refreshSession: endpoint({
    method: 'POST',
    path: '/api/auth/refresh',
    summary: "Spends the cookie's refresh token and answers the session with a new access token",
    tag: TAG,
    caller: 'public',
    body: callbackForm.meta({ examples: [{ csrfToken: '5d2a4c779a513f0e…' }] }),
    responses: { 200: sessionAnswer, 401: errorBody, 403: errorBody },
    rateLimited: true,
  }),
  signOut: endpoint({
    method: 'POST',
    path: '/api/auth/signout',
    summary: "Clears the session cookie and revokes its refresh token's family",
    tag: TAG,
    caller: 'public',
    body: callbackForm.meta({ examples: [callbackExample] }),
    consumes: FORM,
    responses: { 200: urlAnswer, 400: errorBody, 403: errorBody },
    rateLimited: true,
  }),
  errorPage: endpoint({
    method: 'GET',
    path: '/api/auth/error',
    summary: "The protocol's error page: redirects to the login screen with the error",
    tag: TAG,
    caller: 'public',
    query: pageQuery,
    responses: redirect,
    rateLimited: true,
  }),
  signInPage: endpoint({
    method: 'GET',
    path: '/api/auth/signin',
    summary: "The protocol's sign-in page: redirects to the login screen",
    tag: TAG,
    caller: 'public',
    query: pageQuery,
    responses: redirect,
    rateLimited: true,
  }),
  providers: endpoint({
    method: 'GET',
    path: '/api/auth/providers',
    summary: 'The sign-in ways: credentials and each configured social provider, by id',
    tag: TAG,
    caller: 'public',
    responses: { 200: z.record(z.string(), providerAnswer) },
    rateLimited: true,
  }),
  signInWithProvider: endpoint({
    method: 'POST',
    path: '/api/auth/signin/:provider',
    summary:
      "Starts a social sign-in: the provider's authorisation URL (the sign-in page's for an unknown provider)",
    tag: TAG,
    caller: 'public',
    params: providerParams,
    body: callbackForm.meta({ examples: [callbackExample] }),
    consumes: FORM,
    responses: { 200: urlAnswer, 400: errorBody, 403: errorBody },
    rateLimited: true,
  }),
  providerCallback: endpoint({
    method: 'GET',
    path: '/api/auth/callback/:provider',
    summary:
      "The provider's way back: signs a known identity in, sends a new one to registration, a failure to the login screen",
    tag: TAG,
    caller: 'public',
    params: providerParams,
    query: z.object({
      code: z.string().max(2000).optional(),
      state: z.string().max(200).optional(),
    }),
    responses: redirect,
    rateLimited: true,
  }),
  restoreWithProvider: endpoint({
    method: 'GET',
    path: '/api/auth/restore/:provider',
    summary:
      "Starts a provider round trip that proves a restoration link and signs nobody in: back at /restore-account with the provider's assertion",
    tag: TAG,
    caller: 'public',
    params: providerParams,
    query: z.object({ token: z.string().max(200).optional() }),
    responses: redirect,
    rateLimited: true,
  }),
  activateWithProvider: endpoint({
    method: 'GET',
    path: '/api/auth/activate/:provider',
    summary:
      "Starts a provider round trip that proves an activation link and signs nobody in: back at /activate with the provider's assertion",
    tag: TAG,
    caller: 'public',
    params: providerParams,
    query: z.object({
      token: z.string().max(200).optional(),
      email: z.string().max(254).optional(),
    }),
    responses: redirect,
    rateLimited: true,
  }),
  clientLog: endpoint({
    method: 'POST',
    path: '/api/auth/_log',
    summary: 'The session client reports its own errors (auth codes)',
    tag: TAG,
    caller: 'public',
    body: z
      .object({
        level: z.enum(['error', 'warn', 'debug']),
        code: z.string().max(100),
        details: z.unknown().optional(),
      })
      .meta({
        examples: [{ level: 'error', code: 'CLIENT_FETCH_ERROR', details: { name: 'TypeError' } }],
      }),
    responses: { 204: noBody, 413: errorBody },
    rateLimited: true,
  }),
});
