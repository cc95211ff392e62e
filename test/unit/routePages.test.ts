// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { routePages } from '../../server/routes/spa';
import { screenRoutes } from '../../src/screens/routeTable';

const INDEX = '<html><head><title>t</title></head><body></body></html>';
// One made-up chunk per route of the real table, named after its screen.
const preloads = Object.fromEntries(
  screenRoutes.map(({ path, screen }) => [path, [`/assets/${screen.replace('/', '-')}.js`]]),
);
const pageFor = routePages(INDEX, preloads);
const preloaded = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('the page served for a client route', () => {
  it('preloads the screen of the route, in the head', () => {
    const page = pageFor('/login');
    expect(preloaded(page)).toEqual(['/assets/login-LoginScreen.js']);
    expect(page.indexOf('modulepreload')).toBeLessThan(page.indexOf('</head>'));
  });

  it('ranks routes as the client router does: a static segment wins over a parameter', () => {
    expect(preloaded(pageFor('/memory/top/me'))).toEqual(['/assets/memory-MemoryTopScreen.js']);
    expect(preloaded(pageFor('/memory/42'))).toEqual(['/assets/memory-MemoryScreen.js']);
    expect(preloaded(pageFor('/memory/42/mourning'))).toEqual(['/assets/memory-MourningScreen.js']);
    expect(preloaded(pageFor('/timecapsule/edit/7'))).toEqual([
      '/assets/timecapsule-ComposeScreen.js',
    ]);
  });

  it('gives an unknown path the not-found screen', () => {
    expect(preloaded(pageFor('/no/such/page'))).toEqual(['/assets/notFound-NotFoundScreen.js']);
  });

  it('serves the page unchanged without a build map', () => {
    expect(routePages(INDEX, {})('/login')).toBe(INDEX);
  });
});
