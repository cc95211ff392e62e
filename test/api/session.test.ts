import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../server/domain/accounts/sessionCookie';
import { REFRESH_REUSE_GRACE_MS } from '../../server/domain/accounts/refreshTokens';
import { createTestApp, type TestApp } from '../support/testApp';
import { DEFAULT_LOGIN_THROTTLE } from '../../server/domain/accounts/loginThrottle';
import {
  lastActivationLink,
  loginFrom,
  newClient,
  registerActive,
  registrationBody,
} from './accountsSupport';

const ORIGIN = 'http://localhost:3000';
const SESSION = 'shinobu.session-token';
const CSRF = 'shinobu.csrf-token';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A browser of one client address: keeps the cookies the server sets. */
function browser(app: TestApp = t, client = newClient()) {
  const jar: Record<string, string> = {};
  const remember = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies as { name: string; value: string; expires?: Date }[]) {
      if (cookie.value === '' || (cookie.expires && cookie.expires.getTime() <= Date.now())) {
        delete jar[cookie.name];
      } else {
        jar[cookie.name] = cookie.value;
      }
    }
    return response;
  };
  return {
    jar,
    get: async (url: string) =>
      remember(await app.app.inject({ method: 'GET', url, remoteAddress: client, cookies: jar })),
    form: async (url: string, fields: Record<string, string>) =>
      remember(
        await app.app.inject({
          method: 'POST',
          url,
          remoteAddress: client,
          cookies: jar,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
        }),
      ),
    json: async (url: string, body: unknown) =>
      remember(
        await app.app.inject({
          method: 'POST',
          url,
          remoteAddress: client,
          cookies: jar,
          payload: body as object,
        }),
      ),
    async csrf(): Promise<string> {
      return (await this.get('/api/auth/csrf')).json().csrfToken as string;
    },
  };
}

/** What the httpOnly cookie holds, opened with the server's secret (page script cannot). */
async function cookieSession(b: ReturnType<typeof browser>, app: TestApp = t) {
  return openSession(b.jar[SESSION], app.config.authSecret, app.clock);
}

async function signedIn() {
  const { body, login } = await registerActive(t);
  const b = browser();
  const csrfToken = await b.csrf();
  const response = await b.form('/api/auth/callback/credentials', {
    csrfToken,
    username: body.email,
    password: body.password,
    callbackUrl: '/memory/top/me',
    json: 'true',
  });
  return { b, csrfToken, response, body, login };
}

describe('GET /api/auth/csrf', () => {
  it('sets an httpOnly, SameSite=Lax csrf cookie and keeps its token', async () => {
    const b = browser();
    const first = await b.get('/api/auth/csrf');
    expect(first.statusCode).toBe(200);
    const cookie = (
      first.cookies as { name: string; httpOnly?: boolean; sameSite?: string; secure?: boolean }[]
    ).find((c) => c.name === CSRF);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(cookie!.secure).toBeFalsy();
    const token = first.json().csrfToken;
    expect(token).toEqual(expect.any(String));
    expect((await b.get('/api/auth/csrf')).json().csrfToken).toBe(token);
  });
});

describe('POST /api/auth/callback/activation', () => {
  async function registered() {
    const body = registrationBody();
    const answer = await t.request({ method: 'POST', url: '/v1/user', body });
    expect(answer.statusCode).toBe(202);
    return { body, ...lastActivationLink(t) };
  }

  it('activates the account from the mailed link and starts its session in the cookie', async () => {
    const { body, token, email } = await registered();
    const b = browser();
    const csrfToken = await b.csrf();
    // Without the registration's password, or with another, the link starts nothing.
    for (const [password, code] of [
      [undefined, 'activation_password_required'],
      ['not the registration’s password', 'activation_password_mismatch'],
    ] as const) {
      const refused = await b.form('/api/auth/callback/activation', {
        csrfToken,
        token,
        email,
        ...(password === undefined ? {} : { password }),
        json: 'true',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code, detail: expect.any(String) });
      expect(b.jar[SESSION]).toBeUndefined();
    }
    const response = await b.form('/api/auth/callback/activation', {
      csrfToken,
      token,
      email,
      password: body.password,
      callbackUrl: '/dashboard',
      json: 'true',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ url: `${ORIGIN}/dashboard` });

    const session = await b.get('/api/auth/session');
    expect(session.json()).toEqual({
      user: {
        id: expect.any(String),
        username: body.username,
        memorialPageId: expect.any(String),
        iconUrl: null,
        accessToken: expect.any(String),
      },
      expires: expect.any(String),
    });
    // As for a password sign-in, the refresh token stays in the httpOnly cookie.
    expect(response.body + session.body).not.toContain((await cookieSession(b))!.refreshToken);
    // The account is active: the password chosen at registration signs in too.
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(200);

    // The link is single use: a second click starts no session.
    const again = browser();
    const second = await again.form('/api/auth/callback/activation', {
      csrfToken: await again.csrf(),
      token,
      email,
      password: body.password,
      json: 'true',
    });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({ code: 'activation_invalid', detail: expect.any(String) });
    expect(again.jar[SESSION]).toBeUndefined();
  });

  it('refuses without the csrf pair, for another address, and leaves the link usable', async () => {
    const { body, token, email } = await registered();
    const { password } = body;
    const b = browser();
    await b.csrf();
    const forged = await b.form('/api/auth/callback/activation', {
      csrfToken: 'forged',
      token,
      email,
      password,
      json: 'true',
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('MissingCSRF');
    const csrfToken = await b.csrf();
    const otherAddress = await b.form('/api/auth/callback/activation', {
      csrfToken,
      token,
      email: 'someone-else@example.jp',
      password,
      json: 'true',
    });
    expect(otherAddress.statusCode).toBe(400);
    expect(b.jar[SESSION]).toBeUndefined();
    const right = await b.form('/api/auth/callback/activation', {
      csrfToken,
      token,
      email,
      password,
      json: 'true',
    });
    expect(right.statusCode).toBe(200);
    expect(b.jar[SESSION]).toBeDefined();
  });
});

describe('GET /api/auth/providers', () => {
  it('lists the credentials provider', async () => {
    const response = await t.request({ method: 'GET', url: '/api/auth/providers' });
    expect(response.json()).toEqual({
      credentials: {
        id: 'credentials',
        name: 'Credentials',
        type: 'credentials',
        signinUrl: `${ORIGIN}/api/auth/signin/credentials`,
        callbackUrl: `${ORIGIN}/api/auth/callback/credentials`,
      },
    });
  });
});

describe('POST /api/auth/callback/credentials', () => {
  it('signs in, answers the callback URL and sets the encrypted session cookie', async () => {
    const { b, response, body, login } = await signedIn();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ url: `${ORIGIN}/memory/top/me` });
    const cookie = (
      response.cookies as {
        name: string;
        value: string;
        httpOnly?: boolean;
        sameSite?: string;
        path?: string;
      }[]
    ).find((c) => c.name === SESSION);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie!.value).not.toContain(body.email);

    const session = await b.get('/api/auth/session');
    expect(session.headers['cache-control']).toBe('no-store');
    expect(session.json()).toEqual({
      user: {
        id: login.userId,
        username: body.username,
        memorialPageId: login.memorialPageId,
        iconUrl: null,
        accessToken: expect.any(String),
      },
      expires: expect.any(String),
    });
    // The refresh token stays in the httpOnly cookie: no answer to page script carries it.
    expect(session.body).not.toContain((await cookieSession(b))!.refreshToken);
    const detail = await t.request({
      method: 'GET',
      url: `/v1/user/${login.userId}`,
      token: session.json().user.accessToken,
    });
    expect(detail.statusCode).toBe(200);
  });

  it('refuses a missing or wrong csrf token', async () => {
    const { body } = await registerActive(t);
    const b = browser();
    await b.csrf();
    for (const csrfToken of ['', 'forged']) {
      const response = await b.form('/api/auth/callback/credentials', {
        csrfToken,
        username: body.email,
        password: body.password,
        json: 'true',
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('MissingCSRF');
    }
    expect(b.jar[SESSION]).toBeUndefined();
  });

  it('refuses a callback URL on another origin', async () => {
    const b = browser();
    const csrfToken = await b.csrf();
    for (const callbackUrl of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const response = await b.form('/api/auth/callback/credentials', {
        csrfToken,
        username: 'a@example.jp',
        password: 'whatever it is',
        callbackUrl,
        json: 'true',
      });
      expect(response.statusCode, callbackUrl).toBe(400);
      expect(response.json().code).toBe('INVALID_CALLBACK_URL_ERROR');
    }
    const absolute = await b.form('/api/auth/callback/credentials', {
      csrfToken,
      username: 'nobody@example.jp',
      password: 'whatever it is',
      callbackUrl: `${ORIGIN}/dashboard`,
      json: 'true',
    });
    expect(absolute.statusCode).toBe(401);
  });

  it('answers 401 with the reason in the error URL', async () => {
    const { body } = await registerActive(t);
    const b = browser();
    const csrfToken = await b.csrf();
    const attempt = (password: string) =>
      b.form('/api/auth/callback/credentials', {
        csrfToken,
        username: body.email,
        password,
        json: 'true',
      });
    const codes: string[] = [];
    const codeOf = async (password: string) => {
      const response = await attempt(password);
      expect(response.statusCode).toBe(401);
      codes.push(new URL(response.json().url).searchParams.get('code')!);
    };
    await codeOf('not the password');
    // Strangers' guesses from elsewhere fill the account's cap: the account is locked.
    await Promise.all(
      Array.from({ length: DEFAULT_LOGIN_THROTTLE.failuresPerAccount }, () =>
        loginFrom(t, newClient(), body.email, 'a stranger guessing'),
      ),
    );
    await codeOf(body.password);
    expect(codes).toEqual(['invalid_credentials', 'account_locked']);
    const url = new URL((await attempt(body.password)).json().url);
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/api/auth/error`);
    expect(url.searchParams.get('error')).toBe('CredentialsSignin');
    expect(b.jar[SESSION]).toBeUndefined();
  });
});

describe('GET and POST /api/auth/session', () => {
  it('answers null without a session or with an altered cookie', async () => {
    const b = browser();
    const none = await b.get('/api/auth/session');
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('null');
    b.jar[SESSION] = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..x.y.z';
    expect((await b.get('/api/auth/session')).body).toBe('null');
  });

  it('stores a new access token and a new name, with the csrf token', async () => {
    const { b, csrfToken } = await signedIn();
    const before = (await b.get('/api/auth/session')).json();
    const refreshed = (
      await t.request({
        method: 'POST',
        url: '/v1/refresh',
        body: { refresh_token: (await cookieSession(b))!.refreshToken },
      })
    ).json();
    const noCsrf = await b.json('/api/auth/session', {
      data: { accessToken: refreshed.accessToken },
    });
    expect(noCsrf.statusCode).toBe(403);
    const updated = await b.json('/api/auth/session', {
      csrfToken,
      data: { ...refreshed, username: 'hanako2' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().user).toEqual({
      ...before.user,
      accessToken: refreshed.accessToken,
      username: 'hanako2',
    });
    expect((await cookieSession(b))!.refreshToken).toBe(refreshed.refreshToken);
  });

  it("refuses another member's access token", async () => {
    const { b, csrfToken } = await signedIn();
    const other = await registerActive(t);
    const response = await b.json('/api/auth/session', {
      csrfToken,
      data: { accessToken: other.login.accessToken },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('session_update_invalid');
  });
});

describe('POST /api/auth/signout', () => {
  it('clears the cookie and revokes the refresh family', async () => {
    const { b, csrfToken } = await signedIn();
    const { refreshToken } = (await cookieSession(b))!;
    expect((await b.form('/api/auth/signout', { callbackUrl: '/', json: 'true' })).statusCode).toBe(
      403,
    );
    const response = await b.form('/api/auth/signout', {
      csrfToken,
      callbackUrl: '/login',
      json: 'true',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ url: `${ORIGIN}/login` });
    expect(b.jar[SESSION]).toBeUndefined();
    expect((await b.get('/api/auth/session')).body).toBe('null');
    const refresh = await t.request({
      method: 'POST',
      url: '/v1/refresh',
      body: { refresh_token: refreshToken },
    });
    expect(refresh.json().code).toBe('invalid_refresh_token');
  });
});

describe('sign-in and error pages', () => {
  it('answers an unknown provider with the sign-in page URL', async () => {
    const b = browser();
    const csrfToken = await b.csrf();
    const response = await b.form('/api/auth/signin/nosuch', {
      csrfToken,
      callbackUrl: '/dashboard',
      json: 'true',
    });
    expect(response.json()).toEqual({
      url: `${ORIGIN}/api/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/dashboard`)}`,
    });
  });

  it('redirects the error and sign-in pages to the login screen', async () => {
    const error = await t.request({
      method: 'GET',
      url: '/api/auth/error?error=CredentialsSignin&code=account_locked',
    });
    expect(error.statusCode).toBe(302);
    expect(error.headers.location).toBe('/login?error=CredentialsSignin&code=account_locked');
    const signin = await t.request({
      method: 'GET',
      url: '/api/auth/signin?callbackUrl=%2Fdashboard',
    });
    expect(signin.headers.location).toBe('/login?callbackUrl=%2Fdashboard');
  });
});

describe('under HTTPS', () => {
  it('marks the cookies Secure, Path=/, no Domain, with the __Host- prefix', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://shinobu.example' });
    try {
      const b = browser(secure);
      const response = await b.get('/api/auth/csrf');
      const [cookie] = response.cookies as { name: string; secure?: boolean; domain?: string }[];
      expect(cookie).toMatchObject({ name: `__Host-${CSRF}`, secure: true, path: '/' });
      expect(cookie!.domain).toBeUndefined();
      const { body } = await registerActive(secure);
      const signIn = await b.form('/api/auth/callback/credentials', {
        csrfToken: response.json().csrfToken,
        username: body.email,
        password: body.password,
        json: 'true',
      });
      const session = (signIn.cookies as { name: string; secure?: boolean; path?: string }[]).find(
        (c) => c.name.endsWith(SESSION),
      );
      expect(session).toMatchObject({ name: `__Host-${SESSION}`, secure: true, path: '/' });
      expect((await b.get('/api/auth/session')).json().user.id).toEqual(expect.any(String));
    } finally {
      await secure.close();
    }
  });
});

describe('POST /api/auth/refresh (the browser refreshes through the cookie)', () => {
  it('rotates the refresh token inside the cookie and answers the session without it', async () => {
    const { b, csrfToken, login } = await signedIn();
    const before = await cookieSession(b);
    expect((await b.json('/api/auth/refresh', {})).statusCode).toBe(403);
    t.clock.advance(60_000);
    const refreshed = await b.json('/api/auth/refresh', { csrfToken });
    expect(refreshed.statusCode).toBe(200);
    const after = await cookieSession(b);
    expect(after!.refreshToken).not.toBe(before!.refreshToken);
    expect(refreshed.json()).toEqual({
      user: {
        id: login.userId,
        username: expect.any(String),
        memorialPageId: login.memorialPageId,
        iconUrl: null,
        accessToken: after!.accessToken,
      },
      expires: expect.any(String),
    });
    expect(refreshed.body).not.toContain(after!.refreshToken);
    expect(after!.accessToken).not.toBe(before!.accessToken);
    const read = await t.request({
      method: 'GET',
      url: `/v1/user/${login.userId}`,
      token: refreshed.json().user.accessToken,
    });
    expect(read.statusCode).toBe(200);
    // Past the minute in which the same device may send it again, the spent token is a
    // copy: the app's path refuses it and revokes the family.
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    const reused = await t.request({
      method: 'POST',
      url: '/v1/refresh',
      body: { refresh_token: before!.refreshToken },
    });
    expect(reused.json().code).toBe('refresh_token_reused');
    const afterReuse = await b.json('/api/auth/refresh', { csrfToken });
    expect(afterReuse.statusCode).toBe(401);
    expect(afterReuse.json().code).toBe('invalid_refresh_token');
    expect(b.jar[SESSION]).toBeUndefined();
  });

  it('keeps the member signed in when two pages refresh at once with the same cookie', async () => {
    const { b, csrfToken, login } = await signedIn();
    t.clock.advance(16 * 60_000);
    // Two tabs (or a page and the one it opens) meet an expired access token together.
    const other = browser();
    Object.assign(other.jar, b.jar);
    const [first, second] = await Promise.all([
      b.json('/api/auth/refresh', { csrfToken }),
      other.json('/api/auth/refresh', { csrfToken }),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(b.jar[SESSION]).not.toBe(other.jar[SESSION]);
    for (const tab of [b, other]) {
      const again = await tab.json('/api/auth/refresh', { csrfToken });
      expect(again.statusCode).toBe(200);
      const read = await t.request({
        method: 'GET',
        url: `/v1/user/${login.userId}`,
        token: again.json().user.accessToken,
      });
      expect(read.statusCode).toBe(200);
    }
  });

  it('answers 401 without a session', async () => {
    const b = browser();
    const csrfToken = await b.csrf();
    const response = await b.json('/api/auth/refresh', { csrfToken });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      code: 'invalid_refresh_token',
      detail: expect.any(String),
    });
  });
});

describe('absolute session lifetime', () => {
  const DAY = 24 * 60 * 60 * 1000;

  it('ends a session 90 days after its sign-in however often it was refreshed', async () => {
    const { b, csrfToken } = await signedIn();
    const app = await registerActive(t);
    // Both the browser's session and the app's refresh-token family, refreshed every 20 days.
    let appToken = app.login.refreshToken;
    for (let day = 20; day < 90; day += 20) {
      t.clock.advance(20 * DAY);
      expect((await b.json('/api/auth/refresh', { csrfToken })).statusCode).toBe(200);
      const rotated = await t.request({
        method: 'POST',
        url: '/v1/refresh',
        body: { refresh_token: appToken },
      });
      expect(rotated.statusCode).toBe(200);
      appToken = rotated.json().refreshToken;
    }
    // Day 80: the cookie is set to end at day 90, not 30 days on.
    const cookie = await cookieSession(b);
    expect(cookie!.expires.getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(10 * DAY);
    t.clock.advance(10 * DAY);
    expect((await b.get('/api/auth/session')).body).toBe('null');
    expect((await b.json('/api/auth/refresh', { csrfToken })).statusCode).toBe(401);
    const late = await t.request({
      method: 'POST',
      url: '/v1/refresh',
      body: { refresh_token: appToken },
    });
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('invalid_refresh_token');
  });

  it('keeps the sign-in time through refreshes as the access token auth_time', async () => {
    const { b, csrfToken } = await signedIn();
    const signedInAt = Math.floor(t.clock.now().getTime() / 1000);
    t.clock.advance(DAY);
    const refreshed = (await b.json('/api/auth/refresh', { csrfToken })).json();
    const [, payload] = refreshed.user.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims.auth_time).toBe(signedInAt);
    expect(claims.iat).toBe(signedInAt + DAY / 1000);
  });
});
