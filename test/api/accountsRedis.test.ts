/**
 * Login throttling with its counters in Redis (REDIS_URL), as several instances share them.
 * Runs when TEST_REDIS_URL names a Redis server; the same rules run on the database store
 * in accounts.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/testApp';
import { loginFrom, newClient, registerActive } from './accountsSupport';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('login throttling in Redis', () => {
  let t: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: redisUrl!, LOGIN_MAX_ATTEMPTS_PER_CLIENT: '8' };
    t = await createTestApp(env);
    second = await createTestApp(env);
  });
  afterAll(async () => {
    await t.close();
    await second.close();
  });

  it('locks after five failures, on every instance, until the wait is over', async () => {
    const { body } = await registerActive(t);
    const client = newClient();
    for (let i = 0; i < 5; i += 1) {
      expect((await loginFrom(t, client, body.email, 'not the password')).statusCode).toBe(401);
    }
    const locked = await loginFrom(t, client, body.email, body.password);
    expect(locked.statusCode).toBe(423);
    expect(locked.headers['retry-after']).toBe(String(15 * 60));
    // The other instance reads the same counters (its database does not know the email).
    expect((await loginFrom(second, client, body.email, body.password)).statusCode).toBe(423);
    t.clock.advance(15 * 60 * 1000);
    expect((await loginFrom(t, client, body.email, body.password)).statusCode).toBe(200);
  });

  it('lifts the lock on a password reset', async () => {
    const { body } = await registerActive(t);
    const client = newClient();
    for (let i = 0; i < 5; i += 1) await loginFrom(t, client, body.email, 'not the password');
    expect((await loginFrom(t, client, body.email, body.password)).statusCode).toBe(423);
    await t.request({ method: 'POST', url: '/v1/password_reset', body: { email: body.email } });
    const token = new URL(t.mailbox.at(-1)!.link!).searchParams.get('token')!;
    await t.request({
      method: 'POST',
      url: '/v1/password_reset/confirm',
      body: { token, password: 'a fresh long passphrase' },
    });
    expect((await loginFrom(t, client, body.email, 'a fresh long passphrase')).statusCode).toBe(
      200,
    );
  });

  it('answers 429 past the per-client limit', async () => {
    const client = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      statuses.push((await loginFrom(t, client, `someone-${i}@example.jp`, 'guess')).statusCode);
    }
    expect(statuses).toEqual([...Array(8).fill(401), 429]);
  });
});
