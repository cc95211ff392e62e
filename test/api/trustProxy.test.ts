/**
 * The client address that every per-client limit counts comes from the connection, or from
 * the hops TRUST_PROXY trusts: never from what a client writes into X-Forwarded-For.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';

const LIMIT = 3;
const PROXY = '10.0.0.1';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A sign-in attempt arriving over a connection from `remoteAddress` with the given header. */
function attempt(app: TestApp, remoteAddress: string, forwardedFor: string) {
  return app.app.inject({
    method: 'POST',
    url: '/v1/login',
    remoteAddress,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': forwardedFor,
    },
    payload: new URLSearchParams({ username: 'nobody@example.jp', password: 'a guess' }).toString(),
  });
}

// Each test starts an app of its own configuration, on a database of its own.
describe('the client address of the limits', { timeout: 120_000 }, () => {
  it('ignores X-Forwarded-For by default: a new spoofed address each time changes nothing', async () => {
    t = await createTestApp({ LOGIN_MAX_ATTEMPTS_PER_CLIENT: String(LIMIT) });
    const statuses = [];
    for (let i = 0; i <= LIMIT; i += 1) {
      statuses.push((await attempt(t, '203.0.113.7', `198.51.100.${i}`)).statusCode);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
  });

  it('with TRUST_PROXY=1 takes the one hop the proxy appended, not what the client wrote before it', async () => {
    t = await createTestApp({ LOGIN_MAX_ATTEMPTS_PER_CLIENT: String(LIMIT), TRUST_PROXY: '1' });
    const statuses = [];
    // The client writes its own X-Forwarded-For; the proxy appends the address it saw.
    for (let i = 0; i <= LIMIT; i += 1) {
      statuses.push((await attempt(t, PROXY, `198.51.100.${i}, 203.0.113.7`)).statusCode);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
    // Another client behind the same proxy is another address.
    expect((await attempt(t, PROXY, '203.0.113.8')).statusCode).toBe(401);
  });

  it('with a list of proxies believes only those', async () => {
    t = await createTestApp({
      LOGIN_MAX_ATTEMPTS_PER_CLIENT: String(LIMIT),
      TRUST_PROXY: `${PROXY}, 192.168.0.0/16`,
    });
    const fromProxy = [];
    for (let i = 0; i <= LIMIT; i += 1) {
      fromProxy.push((await attempt(t, PROXY, `198.51.100.${i}, 203.0.113.9`)).statusCode);
    }
    expect(fromProxy).toEqual([...Array(LIMIT).fill(401), 429]);
    // A connection that is not from a listed proxy is its own address, whatever it writes.
    const direct = [];
    for (let i = 0; i <= LIMIT; i += 1) {
      direct.push((await attempt(t, '203.0.113.50', `198.51.100.${i}`)).statusCode);
    }
    expect(direct).toEqual([...Array(LIMIT).fill(401), 429]);
  });

  it('applies the same address to the rate limits', async () => {
    t = await createTestApp({ RATE_LIMIT_MAIL_PER_HOUR: '1' });
    const reset = (forwardedFor: string) =>
      t!.app.inject({
        method: 'POST',
        url: '/v1/password_reset',
        remoteAddress: '203.0.113.7',
        headers: { 'x-forwarded-for': forwardedFor },
        payload: { email: 'nobody@example.jp' },
      });
    expect((await reset('198.51.100.1')).statusCode).toBe(202);
    expect((await reset('198.51.100.2')).statusCode).toBe(429);
  });
});
