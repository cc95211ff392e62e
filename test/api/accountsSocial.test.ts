/**
 * Social login end to end against a real OpenID Connect provider (oidc-provider) started here,
 * configured as LINE through LINE_ISSUER. The test plays the browser: it follows the provider's
 * redirects with the provider's cookies, and finishes the provider's login step for the
 * account it chooses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localIssuer,
  startLocalOidcProvider,
  type LocalOidcProvider,
} from '../support/localOidcProvider';
import { createTestApp, type TestApp } from '../support/testApp';
import { lastActivationLink, registrationBody } from './accountsSupport';
import {
  activateWithLine,
  browserOf,
  cookieHeader,
  keep,
  LINE_CLIENT as CLIENT,
  lineEnv,
  lineSignIn,
  SOCIAL_ORIGIN as ORIGIN,
  type Jar,
} from './socialSupport';

const PORT = 4211 + (process.env.API_TEST_DATABASE === 'postgres' ? 1 : 0);
const ISSUER = localIssuer(PORT);

let provider: LocalOidcProvider;
let t: TestApp;

beforeAll(async () => {
  provider = await startLocalOidcProvider({
    port: PORT,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    redirectUris: [`${ORIGIN}/api/auth/callback/line`],
  });
  t = await createTestApp(lineEnv(PORT));
});

afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/** Signs in at the provider and answers the app's callback response. */
const roundTrip = (app: Jar, callbackUrl = '/dashboard') => lineSignIn(t, app, ISSUER, callbackUrl);

describe('social login with a local OpenID Connect provider', () => {
  it('lists the configured provider', async () => {
    const providers = (await t.request({ method: 'GET', url: '/api/auth/providers' })).json();
    expect(providers.line).toEqual({
      id: 'line',
      name: 'LINE',
      type: 'oauth',
      signinUrl: `${ORIGIN}/api/auth/signin/line`,
      callbackUrl: `${ORIGIN}/api/auth/callback/line`,
    });
    expect(providers.google).toBeUndefined();
  });

  it('sends a first sign-in to registration prefilled, then signs the member straight in', async () => {
    provider.signInNext({ sub: 'line-user-1', email: 'line.user@example.jp', name: 'Line User' });
    const jar: Jar = new Map();
    const first = await roundTrip(jar);
    expect(first.statusCode).toBe(302);
    // The assertion travels in the query for this one step: no Referer may carry it off the
    // site, and it is bound to this browser's cookie, sent only with the /v1 calls.
    expect(first.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^shinobu\.provider-binding=.+; Path=\/v1; /)]),
    );
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    const registration = new URL(first.headers.location as string);
    expect(registration.origin + registration.pathname).toBe(`${ORIGIN}/register-top`);
    expect(registration.searchParams.get('provider')).toBe('line');
    const prefill = registration.searchParams;
    expect(prefill.get('email')).toBe('line.user@example.jp');
    expect(prefill.get('name')).toBe('Line User');
    expect(prefill.get('providerUserId')).toBe('line-user-1');
    expect([...jar.keys()].some((name) => name.includes('session-token'))).toBe(false);

    const userRequest = registrationBody({ email: prefill.get('email'), password: undefined });
    const created = await t.request({
      method: 'POST',
      url: '/v1/user/create_user_with_external_provider',
      headers: { cookie: cookieHeader(jar) },
      body: {
        user_request: userRequest,
        provider_request: {
          provider_name: 'line',
          provider_user_id: prefill.get('providerUserId'),
          access_token: prefill.get('assertion'),
          expired_date: null,
        },
      },
    });
    expect(created.statusCode).toBe(202);
    // The mailed link, opened in another browser, asks for a new LINE sign-in of the same
    // identity, which completes the registration and signs the member in there.
    const { token, email } = lastActivationLink(t);
    const mailBrowser: Jar = new Map();
    provider.signInNext({ sub: 'line-user-1', email: 'line.user@example.jp', name: 'Line User' });
    const { activated } = await activateWithLine(t, mailBrowser, ISSUER, { token, email });
    expect(activated.statusCode, activated.body).toBe(200);
    const activatedAs = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: cookieHeader(mailBrowser) },
    });
    const memberId = activatedAs.json().user.id as string;

    const later = await roundTrip(jar, '/memory/top/me');
    expect(later.statusCode).toBe(302);
    expect(later.headers.location).toBe(`${ORIGIN}/memory/top/me`);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      headers: { cookie: cookieHeader(jar) },
    });
    expect(session.json().user.id).toBe(memberId);
  });

  it('completes a registration through LINE only with a new sign-in of its own identity', async () => {
    const sub = 'line-user-4';
    provider.signInNext({ sub, email: 'fourth@example.jp', name: 'Fourth' });
    const registering: Jar = new Map();
    const back = new URL((await roundTrip(registering)).headers.location as string);
    const created = await t.request({
      method: 'POST',
      url: '/v1/user/create_user_with_external_provider',
      headers: { cookie: cookieHeader(registering) },
      body: {
        user_request: registrationBody({ email: 'fourth@example.jp', password: undefined }),
        provider_request: {
          provider_name: 'line',
          provider_user_id: sub,
          access_token: back.searchParams.get('assertion'),
          expired_date: null,
        },
      },
    });
    expect(created.statusCode).toBe(202);
    const { token, email, link } = lastActivationLink(t);
    expect(new URL(link).searchParams.get('provider')).toBe('line');

    // The link alone completes nothing.
    const alone = await t.request({
      method: 'GET',
      url: `/v1/user/confirm/${encodeURIComponent(token)}/${encodeURIComponent(email)}`,
    });
    expect(alone.statusCode).toBe(400);
    expect(alone.json()).toMatchObject({
      code: 'activation_provider_required',
      detail: expect.any(String),
    });
    // Someone else's LINE account, signed in from the link's page, completes nothing either.
    const stranger: Jar = new Map();
    provider.signInNext({ sub: 'line-someone-else', email: 'fourth@example.jp', name: 'X' });
    const { activated: crossed, assertion } = await activateWithLine(t, stranger, ISSUER, {
      token,
      email,
    });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json()).toMatchObject({
      code: 'activation_provider_mismatch',
      detail: expect.any(String),
    });
    expect(stranger.has('shinobu.session-token')).toBe(false);

    // The member's own identity, from a browser with no binding cookie, is no proof.
    const owner: Jar = new Map();
    provider.signInNext({ sub, email: 'fourth@example.jp', name: 'Fourth' });
    const { assertion: ownAssertion } = await activateWithLine(t, new Map(), ISSUER, {
      token: 'not-the-link',
      email,
    });
    const inject = browserOf(t, owner);
    const csrfToken = (await inject('GET', '/api/auth/csrf')).json().csrfToken;
    const unbound = await inject('POST', '/api/auth/callback/activation', {
      csrfToken,
      token,
      email,
      assertion: ownAssertion,
      json: 'true',
    });
    expect(unbound.json().code).toBe('activation_provider_mismatch');
    expect(assertion).not.toBe(ownAssertion);

    // A sign-in of the member's own identity from the link's page completes it.
    provider.signInNext({ sub, email: 'fourth@example.jp', name: 'Fourth' });
    const { activated } = await activateWithLine(t, owner, ISSUER, { token, email });
    expect(activated.statusCode, activated.body).toBe(200);
    expect(owner.has('shinobu.session-token')).toBe(true);
  });

  it('spends an assertion once, only in the browser it was issued to', async () => {
    const sub = 'line-user-3';
    const email = 'third@example.jp';
    // The member comes back from LINE twice before registering: two browsers, two assertions.
    const started = async (jar: Jar) => {
      provider.signInNext({ sub, email, name: 'Third' });
      const back = await roundTrip(jar);
      return new URL(back.headers.location as string).searchParams.get('assertion')!;
    };
    const registering: Jar = new Map();
    const other: Jar = new Map();
    const registered = await started(registering);
    const spare = await started(other);
    const register = (assertion: string, cookie: string) =>
      t.request({
        method: 'POST',
        url: '/v1/user/create_user_with_external_provider',
        headers: { cookie },
        body: {
          user_request: registrationBody({ email, password: undefined }),
          provider_request: {
            provider_name: 'line',
            provider_user_id: sub,
            access_token: assertion,
            expired_date: null,
          },
        },
      });
    const signIn = (assertion: string, cookie: string) =>
      t.request({
        method: 'GET',
        url: `/v1/tmp-return-jwt?assertion=${encodeURIComponent(assertion)}`,
        headers: { cookie },
      });

    // Whoever reads the address without the browser's cookie registers nothing.
    const copied = await register(registered, '');
    expect(copied.statusCode).toBe(401);
    expect(copied.json()).toMatchObject({ code: 'provider_identity_unverified' });
    const crossed = await register(registered, cookieHeader(other));
    expect(crossed.statusCode).toBe(401);
    expect((await register(registered, cookieHeader(registering))).statusCode).toBe(202);
    const { token, email: address } = lastActivationLink(t);
    const mailBrowser: Jar = new Map();
    provider.signInNext({ sub, email, name: 'Third' });
    const { activated } = await activateWithLine(t, mailBrowser, ISSUER, { token, email: address });
    expect(activated.statusCode).toBe(200);
    const memberId = (
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: cookieHeader(mailBrowser) },
      })
    ).json().user.id as string;

    // The assertion of the registration, from the history, mints no session: not without the
    // cookie, and not with it either, for it is spent.
    const fromHistory = await signIn(registered, '');
    expect(fromHistory.statusCode).toBe(401);
    expect(fromHistory.json()).toMatchObject({ code: 'external_login_failed' });
    const replayed = await signIn(registered, cookieHeader(registering));
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({
      code: 'provider_assertion_used',
      detail: expect.any(String),
    });

    // The other browser's assertion signs in once, there only.
    expect((await signIn(spare, '')).statusCode).toBe(401);
    expect((await signIn(spare, cookieHeader(registering))).statusCode).toBe(401);
    const once = await signIn(spare, cookieHeader(other));
    expect(once.statusCode).toBe(200);
    expect(once.json().userId).toBe(memberId);
    const twice = await signIn(spare, cookieHeader(other));
    expect(twice.statusCode).toBe(401);
    expect(twice.json().code).toBe('provider_assertion_used');
  });

  it('refuses a callback whose state does not match the round trip it started', async () => {
    provider.signInNext({ sub: 'line-user-2', email: 'second@example.jp', name: 'Second' });
    const jar: Jar = new Map();
    const csrf = await t.app.inject({ method: 'GET', url: '/api/auth/csrf' });
    keep(jar, csrf.headers['set-cookie']);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/auth/callback/line?code=stolen&state=guessed',
      headers: { cookie: cookieHeader(jar) },
    });
    expect(forged.statusCode).toBe(302);
    expect(forged.headers.location).toBe('/login?error=OAuthCallback');
  });
});
