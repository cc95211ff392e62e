import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let member: TestMember;
let port = 0;

beforeAll(async () => {
  t = await createTestApp();
  member = await createMember(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => t.close());

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
  /** The socket error the client saw, if any (EPIPE, ECONNRESET). */
  socketError?: string;
}

/**
 * One request written on a real socket, as a client outside would send it: Node's HTTP parser
 * and the connection's closing take part, which app.inject leaves out.
 */
function rawRequest(head: string, body?: Buffer): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let socketError: string | undefined;
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (socketError = error.code));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({
        status: Number(text.slice(9, 12)),
        headers: text.slice(0, split),
        body: text.slice(split + 4),
        socketError,
      });
    });
    socket.write(head);
    if (body) socket.write(body, () => socket.end());
  });
}

const get = (url: string, extraHeaders = '') =>
  rawRequest(`GET ${url} HTTP/1.1\r\nHost: localhost\r\n${extraHeaders}Connection: close\r\n\r\n`);

function expectJsonError(answer: { body: string }, code: string) {
  const body = JSON.parse(answer.body) as { detail?: unknown; code?: unknown };
  expect(body.code).toBe(code);
  expect(typeof body.detail).toBe('string');
  return body;
}

describe('text the database cannot keep answers 422 naming the field', () => {
  it('a NUL in a path parameter, signed out', async () => {
    const answer = await t.request({ method: 'GET', url: '/v1/user/confirm/token/a%00b' });
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'email', code: 'text_invalid_character' }],
    });
  });

  it('a NUL in a path parameter of a member call', async () => {
    const answer = await t.request({
      method: 'DELETE',
      url: '/v1/fpos/integration_links/a%00b',
      token: member.token,
    });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors).toEqual([{ field: 'client_id', code: 'text_invalid_character' }]);
  });

  it("a NUL in a memorial page's first name and a history entry's body", async () => {
    const page = await t.request({
      method: 'PATCH',
      url: `/v1/memorial_page/${member.memorialPageId}`,
      token: member.token,
      body: { first_name: 'a\u0000b' },
    });
    expect(page.statusCode).toBe(422);
    expect(page.json().errors).toEqual([{ field: 'first_name', code: 'text_invalid_character' }]);
    const history = await t.request({
      method: 'POST',
      url: `/v1/history/memorial_page_id/${member.memorialPageId}/history`,
      token: member.token,
      body: { occurred_on: '2020-01-01', body: 'x\u0000' },
    });
    expect(history.statusCode).toBe(422);
    expect(history.json().errors).toEqual([{ field: 'body', code: 'text_invalid_character' }]);
  });

  it('a lone surrogate in JSON, nested, and a NUL in a query', async () => {
    const nested = await t.request({
      method: 'POST',
      url: '/v1/user/create_user_with_external_provider',
      headers: { 'content-type': 'application/json' },
      body: '{"user_request":{"first_name":"\\ud800"},"provider_request":{}}',
    });
    expect(nested.statusCode).toBe(422);
    expect(nested.json().errors).toEqual([
      { field: 'user_request.first_name', code: 'text_invalid_character' },
    ]);
    const query = await t.request({
      method: 'GET',
      url: '/v1/user_search?q=%00',
      token: member.token,
    });
    expect(query.statusCode).toBe(422);
    expect(query.json().errors).toEqual([{ field: 'q', code: 'text_invalid_character' }]);
  });

  it('a well-formed pair of surrogates (an emoji) is kept as written', async () => {
    const answer = await t.request({
      method: 'PATCH',
      url: `/v1/memorial_page/${member.memorialPageId}`,
      token: member.token,
      body: { first_name: '太郎😀' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().firstName).toBe('太郎😀');
  });
});

describe("the framework's and Node's refusals answer {detail, code}", () => {
  it('a malformed percent-encoding in the path: 400 bad_url, the URL not echoed', async () => {
    const answer = await get('/v1/user/confirm/abc/%zz');
    expect(answer.status).toBe(400);
    expectJsonError(answer, 'bad_url');
    expect(answer.body).not.toContain('%zz');
  });

  it('a path parameter over the router limit: 414 uri_too_long, the URL not echoed', async () => {
    const long = 'a'.repeat(1500);
    const answer = await get(`/v1/memorial_page/${long}`);
    expect(answer.status).toBe(414);
    expectJsonError(answer, 'uri_too_long');
    expect(answer.body).not.toContain(long);
  });

  it('an e-mail address of 254 characters in the activation path reaches the route', async () => {
    const email = `${'a'.repeat(240)}@example.jp`;
    const answer = await t.request({ method: 'GET', url: `/v1/user/confirm/token/${email}` });
    expect(answer.statusCode).not.toBe(414);
    expect(answer.statusCode).toBeLessThan(500);
  });

  it('a 20 kB query string: 431 headers_too_large', async () => {
    const answer = await get(`/v1/user_search?q=${'a'.repeat(20_000)}`);
    expect(answer.status).toBe(431);
    expectJsonError(answer, 'headers_too_large');
    expect(answer.headers).toMatch(/content-type: application\/json/i);
  });

  it('headers too large: 431 headers_too_large', async () => {
    const answer = await get('/healthz', `X-Padding: ${'b'.repeat(20_000)}\r\n`);
    expect(answer.status).toBe(431);
    expectJsonError(answer, 'headers_too_large');
  });

  it('a request that is not HTTP: 400 bad_request', async () => {
    const answer = await rawRequest('GARBAGE\r\n\r\n');
    expect(answer.status).toBe(400);
    expectJsonError(answer, 'bad_request');
  });

  it('a body over the limit gets a readable 413, with its length declared', async () => {
    const body = Buffer.alloc(8 * 1024 * 1024, 'a');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await rawRequest(
        'POST /v1/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${body.length}\r\n\r\n`,
        body,
      );
      expect(answer.socketError).toBeUndefined();
      expect(answer.status).toBe(413);
      expectJsonError(answer, 'payload_too_large');
    }
  });

  it('a body over the limit gets a readable 413, sent in chunks', async () => {
    const chunk = Buffer.alloc(512 * 1024, 'a');
    const size = chunk.length.toString(16);
    const chunked = Buffer.concat([
      ...Array.from({ length: 6 }, () =>
        Buffer.concat([Buffer.from(`${size}\r\n`), chunk, Buffer.from('\r\n')]),
      ),
      Buffer.from('0\r\n\r\n'),
    ]);
    const answer = await rawRequest(
      'POST /v1/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
      chunked,
    );
    expect(answer.socketError).toBeUndefined();
    expect(answer.status).toBe(413);
    expectJsonError(answer, 'payload_too_large');
  });

  it('a content type no route reads: 415 with a detail that echoes nothing', async () => {
    const answer = await t.request({
      method: 'POST',
      url: '/v1/login',
      headers: { 'content-type': 'text/x-evil<script>' },
      body: 'x',
    });
    expect(answer.statusCode).toBe(415);
    expect(answer.json().code).toBe('unsupported_media_type');
    expect(answer.body).not.toContain('script');
  });
});
