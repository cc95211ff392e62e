import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { ROWS } from './authorizationMatrixRows';
import {
  createWorld,
  credentialsOf,
  HTML_PAGES,
  MATRIX_ENV,
  NEVER_ANSWERED,
  PRINCIPALS,
  secretsHiddenFrom,
  type World,
} from './authorizationWorld';

/** The routes the matrix covers: the product API, the session layer and the file store. */
const COVERED = /^\/(v1|api\/auth|files)(\/|$)/;

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await createTestApp(MATRIX_ENV);
  world = await createWorld(t);
});
afterAll(async () => t.close());

describe('authorisation matrix', () => {
  it('has exactly one row for every route the server registers', () => {
    const registered = t.routes
      .filter((route) => COVERED.test(route.url))
      .map((route) => `${route.method} ${route.url}`);
    expect(registered.filter((route) => !(route in ROWS))).toEqual([]);
    expect(Object.keys(ROWS).filter((route) => !registered.includes(route))).toEqual([]);
  });

  for (const [route, row] of Object.entries(ROWS)) {
    it(route, async () => {
      const rowWorld = row.fresh ? await createWorld(t) : world;
      const wrong: string[] = [];
      for (const principal of PRINCIPALS) {
        const request = await row.request(rowWorld, principal);
        const credentials = credentialsOf(rowWorld, principal);
        const answer = await t.request({
          ...request,
          ...credentials,
          headers: { ...request.headers, ...credentials.headers },
        });
        const expected = row.expect[principal];
        if (answer.statusCode !== expected) {
          wrong.push(`${principal}: ${answer.statusCode} (expected ${expected}) ${answer.body}`);
        }
        for (const secret of secretsHiddenFrom(rowWorld, principal)) {
          if (answer.body.includes(secret)) wrong.push(`${principal}: answer carries ${secret}`);
        }
        for (const pattern of NEVER_ANSWERED) {
          if (pattern.test(answer.body)) wrong.push(`${principal}: answer matches ${pattern}`);
        }
        if (answer.statusCode >= 400 && !HTML_PAGES.has(route)) {
          expect(answer.json(), `${principal}: ${answer.body}`).toHaveProperty('detail');
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
