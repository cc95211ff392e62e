import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpaApp, type SpaApp } from '../support/spaApp';

// A build as Vite leaves it, without the server's render: every page is index.html as built.
const INDEX =
  '<!doctype html><html lang="ja"><head><title>t</title></head><body><div id="root"></div></body></html>';

describe('the page of a client route', () => {
  let app: SpaApp;
  beforeAll(async () => {
    app = await createSpaApp({ 'index.html': INDEX, 'assets/LoginScreen-a.js': 'export {};' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const page = (url: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
  const MEMBER = { cookie: 'theme=x; shinobu.session-token=anything' };

  it('is index.html, revalidated and kept per cookie, on any open route', async () => {
    for (const url of ['/login', '/memory/9', '/timecapsule', '/memory/invitation', '/no/such']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toContain('Cookie');
    }
  });

  it('redirects a visitor from a member-only route to /login, keeping the page to return to', async () => {
    for (const url of [
      '/dashboard',
      '/dashboard?tab=2',
      '/mypage',
      '/endingnote/7',
      '/timecapsule/list',
    ]) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(302);
      // Plain /login, as the client's own navigation ends; the page asked for in a cookie the
      // client moves into nav.postLoginRedirectUrl.
      expect(response.headers.location, url).toBe('/login');
      expect(response.headers.vary, url).toContain('Cookie');
      const returnTo = response.cookies.find((cookie) => cookie.name === 'shinobu.return-to');
      expect(returnTo, url).toMatchObject({ value: url, path: '/', maxAge: 300, sameSite: 'Lax' });
      expect(returnTo?.httpOnly, url).toBeFalsy();
    }
  });

  it('serves member-only routes to a request with a session cookie or an Authorization header', async () => {
    for (const headers of [
      MEMBER,
      { cookie: '__Host-shinobu.session-token=x' },
      { authorization: 'Bearer x' },
    ]) {
      for (const url of ['/dashboard', '/mypage', '/endingnote/7']) {
        const response = await page(url, headers);
        expect(response.statusCode, url).toBe(200);
        expect(response.body, url).toBe(INDEX);
      }
    }
  });

  it('redirects only page requests, serves the assets and answers unknown API paths in JSON', async () => {
    expect((await app.app.inject({ method: 'GET', url: '/dashboard' })).statusCode).toBe(404);
    const asset = await app.app.inject({ method: 'GET', url: '/assets/LoginScreen-a.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await page('/v1/no-such-call');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'not_found' });
  });
});
