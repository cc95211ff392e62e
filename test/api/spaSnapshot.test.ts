import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_SNAPSHOT_FILE, ROUTE_PRELOADS_FILE } from '../../server/paths';
import { screenRoutes } from '../../src/screens/routeTable';
import { createSpaApp, type SpaApp } from '../support/spaApp';

// A build as vite.config.ts leaves it: index.html, the route preload map and the snapshot.
const INDEX =
  '<!doctype html><html><head><title>t</title>' +
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/framework-def.js">' +
  '</head><body><div id="root"></div></body></html>';
const PRELOADS = Object.fromEntries(screenRoutes.map(({ path: route }) => [route, []]));
const SNAPSHOT = { html: '<form id="snap-form"></form>', css: '.snap{color:red}' };

const hasSnapshot = (html: string) =>
  html.includes('<div id="snapshot" inert><form id="snap-form"></form></div>') &&
  html.includes('<div id="root" hidden></div>') &&
  html.includes('<style id="snapshot-style">.snap{color:red}');
const isPlainPage = (html: string) =>
  !html.includes('snapshot') && html.includes('<div id="root"></div>');

describe('the first paint of /login and member-only routes, by the session cookie', () => {
  let app: SpaApp;
  beforeAll(async () => {
    app = await createSpaApp({
      'index.html': INDEX,
      [ROUTE_PRELOADS_FILE]: JSON.stringify(PRELOADS),
      [LOGIN_SNAPSHOT_FILE]: JSON.stringify(SNAPSHOT),
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const page = (url: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
  const MEMBER = { cookie: 'theme=x; shinobu.session-token=anything' };

  it("draws the snapshot into a visitor's /login, with or without a callbackUrl", async () => {
    for (const url of ['/login', '/login?callbackUrl=%2Fmypage']) {
      const response = await page(url);
      expect(response.statusCode).toBe(200);
      expect(hasSnapshot(response.body)).toBe(true);
      // The app's code is asked for only after the snapshot's first frame.
      expect(response.body).not.toContain('<script type="module"');
      expect(response.body).not.toContain('rel="modulepreload"');
      expect(response.body).toMatch(
        /<script data-entry="\/assets\/index-abc\.js" data-preloads="\/assets\/framework-def\.js">[^<]+<\/script><\/body>/,
      );
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toContain('Cookie');
    }
  });

  it('leaves it out with a session cookie (either name) or an Authorization header', async () => {
    for (const headers of [
      MEMBER,
      { cookie: '__Host-shinobu.session-token=x' },
      { authorization: 'Bearer x' },
    ]) {
      const response = await page('/login', headers);
      expect(response.statusCode).toBe(200);
      expect(isPlainPage(response.body)).toBe(true);
    }
    // Other cookies do not make a member.
    expect(hasSnapshot((await page('/login', { cookie: 'shinobu.csrf-token=x' })).body)).toBe(true);
  });

  it('leaves it out when the query changes the frame or the screen, and on other routes', async () => {
    for (const url of [
      '/login?inflow=True',
      '/login?error=CredentialsSignin&code=locked',
      '/login?unknown=1',
      '/',
      '/register-top',
      '/memory/9',
    ]) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(isPlainPage(response.body), url).toBe(true);
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

  it('serves member-only routes to a request with a session cookie, and open routes to anyone', async () => {
    for (const url of ['/dashboard', '/mypage', '/endingnote/7']) {
      const response = await page(url, MEMBER);
      expect(response.statusCode, url).toBe(200);
      expect(isPlainPage(response.body), url).toBe(true);
    }
    for (const url of ['/memory/9', '/timecapsule', '/timecapsule/claim', '/memory/invitation']) {
      expect((await page(url)).statusCode, url).toBe(200);
    }
  });

  it('redirects only page requests: API paths and non-HTML requests are left alone', async () => {
    const json = await app.app.inject({ method: 'GET', url: '/dashboard' });
    expect(json.statusCode).toBe(404);
  });
});
