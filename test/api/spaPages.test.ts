import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_PRELOADS_FILE } from '../../server/paths';
import { createSpaApp, type SpaApp } from '../support/spaApp';

// A build as vite.config.ts leaves it: index.html, hashed assets and the route preload map.
const INDEX = '<!doctype html><html><head><title>t</title></head><body></body></html>';
const PRELOADS = {
  '/login': ['/assets/LoginScreen-a.js', '/assets/query-b.js'],
  '/memory/top/me': ['/assets/MemoryTopScreen-c.js'],
  '/memory/:memorialPageId': ['/assets/MemoryScreen-d.js'],
  '*': ['/assets/NotFoundScreen-e.js'],
};

const preloaded = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('the SPA page of a client route', () => {
  let app: SpaApp;
  beforeAll(async () => {
    app = await createSpaApp({
      'index.html': INDEX,
      'assets/LoginScreen-a.js': 'export {};',
      [ROUTE_PRELOADS_FILE]: JSON.stringify(PRELOADS),
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const page = (url: string) =>
    app.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

  it("names the route's screen chunks as module preloads, whatever the query", async () => {
    for (const url of ['/login', '/login?callbackUrl=%2Fmypage']) {
      const response = await page(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(preloaded(response.body)).toEqual(PRELOADS['/login']);
    }
  });

  it('matches routes as the client router ranks them', async () => {
    expect(preloaded((await page('/memory/top/me')).body)).toEqual(PRELOADS['/memory/top/me']);
    expect(preloaded((await page('/memory/9')).body)).toEqual(PRELOADS['/memory/:memorialPageId']);
    expect(preloaded((await page('/no/such/page')).body)).toEqual(PRELOADS['*']);
  });

  it('still serves the assets themselves and answers unknown API paths in JSON', async () => {
    const asset = await app.app.inject({ method: 'GET', url: '/assets/LoginScreen-a.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await page('/v1/no-such-call');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'not_found' });
  });
});
