/**
 * The browser's side of a round trip through the local OpenID Connect provider the test app
 * knows as LINE (test/support/localOidcProvider.ts): cookies kept per site, the provider's
 * redirects followed, and the app's callback answered.
 */
import { expect } from 'vitest';
import { localIssuer } from '../support/localOidcProvider';
import type { TestApp } from '../support/testApp';
import { newClient } from './accountsSupport';

export const SOCIAL_ORIGIN = 'http://localhost:3000';
export const LINE_CLIENT = { id: 'shinobu-line', secret: 'a-client-secret-for-the-local-provider' };

/** The test app's LINE settings for a provider on `port`. */
export const lineEnv = (port: number) => ({
  LINE_CLIENT_ID: LINE_CLIENT.id,
  LINE_CLIENT_SECRET: LINE_CLIENT.secret,
  LINE_ISSUER: localIssuer(port),
});

/** Cookies by name, as a browser keeps them per site. */
export type Jar = Map<string, string>;

export function keep(jar: Jar, setCookie: string[] | string | undefined) {
  for (const line of [setCookie ?? []].flat()) {
    const [pair = ''] = line.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index);
    const value = pair.slice(index + 1);
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}
export const cookieHeader = (jar: Jar) =>
  [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

/** app.inject from one client with the jar's cookies, keeping what the answer sets. */
export function browserOf(t: TestApp, app: Jar) {
  const client = newClient();
  return async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
    const response = await t.app.inject({
      method,
      url,
      remoteAddress: client,
      headers: {
        cookie: cookieHeader(app),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    keep(app, response.headers['set-cookie']);
    return response;
  };
}

/**
 * Follows the provider from `location` (its authorisation URL) through its sign-in back to
 * the app's callback, and answers the callback's response.
 */
export async function throughProvider(t: TestApp, app: Jar, issuer: string, location: string) {
  expect(location.startsWith(`${issuer}/`)).toBe(true);
  const providerJar: Jar = new Map();
  while (location.startsWith(issuer) || location.startsWith('/')) {
    const response = await fetch(new URL(location, issuer), {
      redirect: 'manual',
      headers: { cookie: cookieHeader(providerJar) },
    });
    keep(providerJar, response.headers.getSetCookie());
    expect([302, 303], await response.clone().text()).toContain(response.status);
    location = response.headers.get('location')!;
  }
  expect(location.startsWith(`${SOCIAL_ORIGIN}/api/auth/callback/line?`)).toBe(true);
  const back = new URL(location);
  return browserOf(t, app)('GET', back.pathname + back.search);
}

/** Signs in at the provider from the login screen's button and answers the app's callback. */
export async function lineSignIn(t: TestApp, app: Jar, issuer: string, callbackUrl = '/dashboard') {
  const inject = browserOf(t, app);
  const csrfToken = (await inject('GET', '/api/auth/csrf')).json().csrfToken;
  const started = await inject('POST', '/api/auth/signin/line', {
    csrfToken,
    callbackUrl,
    json: 'true',
  });
  expect(started.statusCode).toBe(200);
  return throughProvider(t, app, issuer, started.json().url);
}

/**
 * The activation link's provider button (a registration made through LINE): the round trip
 * from the link's page, signed in at the provider as whoever it was told to sign in next,
 * back at /activate with the assertion; then the page's activation call with it. Answers
 * that call and the assertion.
 */
export async function activateWithLine(
  t: TestApp,
  app: Jar,
  issuer: string,
  link: { token: string; email: string },
) {
  const inject = browserOf(t, app);
  const started = await inject('GET', `/api/auth/activate/line?${new URLSearchParams(link)}`);
  expect(started.statusCode).toBe(302);
  const back = await throughProvider(t, app, issuer, started.headers.location as string);
  expect(back.statusCode).toBe(302);
  const page = new URL(back.headers.location as string);
  expect(page.origin + page.pathname).toBe(`${SOCIAL_ORIGIN}/activate`);
  expect(page.searchParams.get('token')).toBe(link.token);
  // The round trip signs nobody in.
  expect([...app.keys()].some((name) => name.includes('session-token'))).toBe(false);
  const assertion = page.searchParams.get('assertion')!;
  const csrfToken = (await inject('GET', '/api/auth/csrf')).json().csrfToken;
  const activated = await inject('POST', '/api/auth/callback/activation', {
    csrfToken,
    ...link,
    assertion,
    json: 'true',
  });
  return { activated, assertion };
}
