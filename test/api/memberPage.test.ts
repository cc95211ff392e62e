import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { sealSession } from '../../server/domain/accounts/sessionCookie';
import { manualClock } from '../../server/lib/clock';
import { jsonForScript } from '../../server/pages/memberPage';
import { createSpaApp, type SpaApp } from '../support/spaApp';

// A build as server/pages/build.ts leaves it: hashed assets with their compressed copies beside them.
const INDEX = '<!doctype html><html><head><title>t</title></head><body></body></html>';
const SESSION_COOKIE = 'shinobu.session-token';
const MEMBER_SOURCE = 'export const memberParts = 1;\n'.repeat(20);
const user = {
  id: 'u-1',
  // Whatever a member calls themselves must not end the element it is written in.
  username: '</script><script>alert("x")</script><!-- $& \u2028',
  memorialPageId: null,
  iconUrl: null,
};

const sessionElement = (html: string) =>
  /<script type="application\/json" id="shinobu-session">([^<]*)<\/script>/.exec(html)?.[1];

describe("a member's page", () => {
  let app: SpaApp;
  const clock = manualClock();
  beforeAll(async () => {
    app = await createSpaApp(
      {
        'index.html': INDEX,
        'assets/memberParts-c.js': MEMBER_SOURCE,
        'assets/memberParts-c.js.br': brotliCompressSync(MEMBER_SOURCE),
        'assets/memberParts-c.js.gz': gzipSync(MEMBER_SOURCE),
      },
      { clock },
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  const REFRESH_TOKEN = 'refresh-token-page-script-must-not-see';
  const cookieOf = async (secret = app.ctx.config.authSecret) =>
    (
      await sealSession(
        {
          user,
          accessToken: await issueAccessToken(user.id, secret, clock),
          refreshToken: REFRESH_TOKEN,
        },
        secret,
        clock,
      )
    ).value;
  const page = (cookies: Record<string, string> = {}) =>
    app.app.inject({
      method: 'GET',
      url: `/endingnote/${user.id}`,
      headers: { accept: 'text/html' },
      cookies,
    });

  it('carries what GET /api/auth/session answers, escaped, never cached', async () => {
    const cookie = await cookieOf();
    const response = await page({ [SESSION_COOKIE]: cookie });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store, private');
    expect(response.headers.vary).toContain('Cookie');
    const text = sessionElement(response.body);
    expect(text).toBeDefined();
    // Nothing in it can close the element or open markup; it is still the same JSON.
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(response.body.match(/<\/script>/g)).toHaveLength(1);
    const answer = await app.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      cookies: { [SESSION_COOKIE]: cookie },
    });
    expect(JSON.parse(text!)).toEqual(answer.json());
    expect(jsonForScript(answer.json())).toBe(text);
    // The refresh token stays in the httpOnly cookie: neither the page nor the session has it.
    expect(response.body).not.toContain(REFRESH_TOKEN);
    expect(answer.body).not.toContain(REFRESH_TOKEN);
    expect(JSON.parse(text!).user).not.toHaveProperty('refreshToken');
  });

  it('is the everyone-page with a cookie that does not open; without one, a redirect', async () => {
    // A visitor with no cookie at all is sent to /login before any page (spaPages.test.ts).
    const visitor = await page();
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toBe('/login');
    const refused: Record<string, string>[] = [
      { [SESSION_COOKIE]: 'forged' },
      { [SESSION_COOKIE]: await cookieOf('another secret of enough length 0123456789') },
    ];
    for (const cookies of refused) {
      const response = await page(cookies);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(sessionElement(response.body)).toBeUndefined();
      expect(response.body).not.toContain('access-1');
    }
  });

  it('answers the hashed assets compressed as the browser accepts', async () => {
    const asset = (encoding?: string) =>
      app.app.inject({
        method: 'GET',
        url: '/assets/memberParts-c.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const br = await asset('gzip, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(MEMBER_SOURCE);
    const gzip = await asset('br;q=0, gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(MEMBER_SOURCE);
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toContain('javascript');
    expect(plain.body).toBe(MEMBER_SOURCE);
  });

  it('is the everyone-page once the session cookie has expired', async () => {
    const cookie = await cookieOf();
    clock.advance(400 * 24 * 60 * 60 * 1000);
    const response = await page({ [SESSION_COOKIE]: cookie });
    expect(sessionElement(response.body)).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-cache');
  });
});
