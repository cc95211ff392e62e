import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from '../../server/domain/accessTokens';
import { sealSession } from '../../server/domain/accounts/sessionCookie';
import { manualClock } from '../../server/domain/clock';
import { MEMBER_PRELOADS_FILE, ROUTE_PRELOADS_FILE } from '../../server/paths';
import { acceptedEncodings } from '../../server/http/encodings';
import { jsonForScript } from '../../server/routes/memberPage';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createSpaApp, memberPage, type SpaApp } from '../support/spaApp';
import type { TestApp } from '../support/testApp';

// A build as vite.config.ts leaves it, with the member frame's chunks beside the route map.
const INDEX = '<!doctype html><html><head><title>t</title></head><body></body></html>';
const PRELOADS = { '/endingnote/:userId': ['/assets/EndingNoteScreen-a.js', '/assets/query-b.js'] };
const MEMBER = ['/assets/memberParts-c.js', '/assets/query-b.js', '/assets/DeathModals-d.js'];
const SESSION_COOKIE = 'shinobu.session-token';
const MEMBER_SOURCE = 'export const memberParts = 1;\n'.repeat(20);
const user = {
  id: 'u-1',
  // Whatever a member calls themselves must not end the element it is written in.
  username: '</script><script>alert("x")</script><!-- $& \u2028',
  memorialPageId: null,
  iconUrl: null,
};

const preloaded = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
const sessionElement = (html: string) =>
  /<script type="application\/json" id="shinobu-session">([^<]*)<\/script>/.exec(html)?.[1];

describe("a member's page", () => {
  let app: SpaApp;
  const clock = manualClock();
  beforeAll(async () => {
    app = await createSpaApp(
      {
        'index.html': INDEX,
        [ROUTE_PRELOADS_FILE]: JSON.stringify(PRELOADS),
        [MEMBER_PRELOADS_FILE]: JSON.stringify(MEMBER),
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

  it("preloads the member frame's chunks once, beside the route's", async () => {
    const response = await page({ [SESSION_COOKIE]: await cookieOf() });
    expect(preloaded(response.body)).toEqual([
      ...PRELOADS['/endingnote/:userId'],
      '/assets/memberParts-c.js',
      '/assets/DeathModals-d.js',
    ]);
  });

  it('is the everyone-page with a cookie that does not open; without one, a redirect', async () => {
    // A visitor with no cookie at all is sent to /login before any page (spaSnapshot.test.ts).
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
      expect(preloaded(response.body)).toEqual(PRELOADS['/endingnote/:userId']);
    }
  });

  it('answers the hashed assets from memory, compressed as the browser accepts', async () => {
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
    expect(plain.headers['content-type']).toContain('text/javascript');
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

const answersElement = (html: string) =>
  /<script type="application\/json" id="shinobu-page-answers">([^<]*)<\/script>/.exec(html)?.[1];

describe("the ending note's first answers in its page (issue 6)", () => {
  let app: SpaApp;
  const clock = manualClock();
  let owner: TestMember;
  let reader: TestMember;
  let stranger: TestMember;
  beforeAll(async () => {
    app = await createSpaApp(
      { 'index.html': INDEX, [ROUTE_PRELOADS_FILE]: JSON.stringify(PRELOADS) },
      { clock },
    );
    const maker = { ctx: app.ctx, clock, config: app.ctx.config };
    [owner, reader, stranger] = [
      await createMember(maker),
      await createMember(maker),
      await createMember(maker),
    ];
    await connectMembers({ ctx: app.ctx, clock } as unknown as TestApp, owner, reader);
    const call = (method: 'PUT', url: string, payload: object) =>
      app.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${owner.token}` },
        payload,
      });
    // A value that would end the element it is written in, in a section open to readers.
    const saved = await call('PUT', `/v1/endingnote/${owner.id}/sections/self`, {
      version: 0,
      values: { full_name: '</script><script>alert(1)</script>', birthdate: '', family: '' },
    });
    expect(saved.statusCode).toBe(200);
    expect(
      (
        await call('PUT', `/v1/endingnote/${owner.id}/sections/self/visibility`, {
          visibility: 'readers_now',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call('PUT', `/v1/endingnote/${owner.id}/readers`, { user_ids: [reader.id] }))
        .statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  const notePage = (member: TestMember, path = `/endingnote/${owner.id}`) =>
    memberPage(app, member, path);
  const api = async (member: TestMember, url: string) => {
    const response = await app.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${member.token}` },
    });
    return { status: response.statusCode, body: response.json() as unknown };
  };
  const answersOf = (html: string) => {
    const text = answersElement(html);
    return text === undefined
      ? undefined
      : (JSON.parse(text) as { userId: string; answers: Record<string, unknown> });
  };

  it("carries the owner's note, readers and connections as the API answers them, escaped", async () => {
    const response = await notePage(owner);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store, private');
    const text = answersElement(response.body);
    expect(text).not.toMatch(/[<>&\u2028]/);
    // Last in the body, so the head and its preloads were not held up by the reads.
    const body = response.body;
    expect(body.indexOf('id="shinobu-page-answers"')).toBeGreaterThan(body.indexOf('</head>'));
    expect(body.indexOf('</body>')).toBeGreaterThan(body.indexOf('id="shinobu-page-answers"'));
    // The session's element and this one: nothing a member wrote closes either.
    expect(response.body.match(/<\/script>/g)).toHaveLength(2);
    const notePath = `/v1/endingnote/${owner.id}`;
    const paths = [notePath, `${notePath}/readers`, '/v1/connection/connections'];
    const expected: Record<string, unknown> = {};
    for (const path of paths) {
      const answer = await api(owner, path);
      expect(answer.status).toBe(200);
      expected[path] = answer.body;
    }
    expect(answersOf(response.body)).toEqual({ userId: owner.id, answers: expected });
  });

  it('carries to a designated reader only the note, as the API answers them', async () => {
    const response = await notePage(reader);
    const notePath = `/v1/endingnote/${owner.id}`;
    const answer = await api(reader, notePath);
    expect(answer.status).toBe(200);
    expect(answersOf(response.body)).toEqual({
      userId: reader.id,
      answers: { [notePath]: answer.body },
    });
  });

  it('carries nothing the API refuses, nor anything on other routes', async () => {
    expect((await api(stranger, `/v1/endingnote/${owner.id}`)).status).toBe(404);
    const refused = await notePage(stranger);
    expect(sessionElement(refused.body)).toBeDefined();
    expect(answersElement(refused.body)).toBeUndefined();
    expect(answersElement((await notePage(owner, '/endingnote/not-a-uuid')).body)).toBeUndefined();
    expect(answersElement((await notePage(owner, '/dashboard')).body)).toBeUndefined();
  });

  it("reads nothing once the session's access token has expired, as the API would not", async () => {
    clock.advance((ACCESS_TOKEN_TTL_SECONDS + 60) * 1000);
    const response = await notePage(owner);
    // The page still carries the session, which the client then refreshes through its cookie.
    expect(sessionElement(response.body)).toBeDefined();
    expect(answersElement(response.body)).toBeUndefined();
  });
});

describe('the hashed assets, answered from memory', () => {
  it('negotiates the encoding, a q=0 refusing one', () => {
    expect([...acceptedEncodings('gzip, deflate, br, zstd')]).toEqual(
      expect.arrayContaining(['gzip', 'br']),
    );
    expect(acceptedEncodings('br;q=0, gzip').has('br')).toBe(false);
    expect(acceptedEncodings('br;q=0, gzip').has('gzip')).toBe(true);
    expect(acceptedEncodings(undefined).size).toBe(0);
  });
});
