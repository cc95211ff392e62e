/**
 * Sign-in throttling as an attacker meets it: a thousand parallel guesses at one account
 * from a thousand addresses, over two instances sharing the counters (the database, and
 * Redis when TEST_REDIS_URL names a server), stop at the account's cap; the owner of the
 * locked account signs in once with the link mailed to them; the per-client limit; a
 * password reset lifting the lock.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_THROTTLE } from '../../server/domain/accounts/loginThrottle';
import { createSecondInstance, createTestApp, type TestApp } from '../support/testApp';
import { loginFrom, newClient, registerActive } from './accountsSupport';

const HOUR = 60 * 60 * 1000;
const CAP = DEFAULT_LOGIN_THROTTLE.failuresPerAccount;
const redisUrl = process.env.TEST_REDIS_URL;

/** POST /v1/login on any instance, from a given address, optionally with an unlock token. */
function loginOn(
  app: FastifyInstance,
  client: string,
  fields: { username: string; password: string; unlock_token?: string },
) {
  return app.inject({
    method: 'POST',
    url: '/v1/login',
    remoteAddress: client,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

const stores: { name: string; env: Record<string, string> }[] = [
  { name: 'database', env: {} },
  // A key prefix of its own, so that runs and other suites sharing the server never meet.
  { name: 'Redis', env: { REDIS_URL: redisUrl ?? '', REDIS_PREFIX: `test:${randomUUID()}:` } },
];

describe.each(stores)('sign-in throttling with the counters in the $name', ({ name, env }) => {
  const skip = name === 'Redis' && !redisUrl;
  let t: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestApp(env);
    second = await createSecondInstance(t, { sharedMailbox: true });
  });
  afterAll(async () => {
    if (skip) return;
    await second.close();
    await t.close();
  });

  const unlockMails = (email: string) =>
    t.mailbox.filter((mail) => mail.to === email && mail.link?.includes('unlock='));

  it.skipIf(skip)(
    'stops 1,000 parallel guesses from 1,000 addresses at the cap, then lets the owner in with the mailed link',
    async () => {
      const { body } = await registerActive(t);
      const guesses = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          loginOn(i % 2 ? second : t.app, newClient(), {
            username: body.email,
            password: `guess number ${i}`,
          }),
        ),
      );
      const statuses = guesses.map((response) => response.statusCode);
      // A 401 comes only after a password check: exactly the cap's worth of checks ran.
      expect(statuses.filter((status) => status === 401)).toHaveLength(CAP);
      expect(statuses.filter((status) => status === 423)).toHaveLength(1000 - CAP);
      const refused = guesses.find((response) => response.statusCode === 423)!;
      expect(refused.json().code).toBe('account_locked');
      expect(refused.json().detail).toEqual(expect.any(String));
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);

      // The owner, from their own address and with the right password, is locked out too…
      const owner = newClient();
      const locked = await loginOn(t.app, owner, { username: body.email, password: body.password });
      expect(locked.statusCode).toBe(423);
      // …but one mail went to them (once, however many guesses were refused) with a link
      // that lets their sign-in past the lock at once.
      await t.sendMail();
      expect(unlockMails(body.email)).toHaveLength(1);
      const link = new URL(unlockMails(body.email)[0]!.link!);
      expect(link.pathname).toBe('/login');
      const unlockToken = link.searchParams.get('unlock')!;
      const signedIn = await loginOn(second, owner, {
        username: body.email,
        password: body.password,
        unlock_token: unlockToken,
      });
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json().accessToken).toEqual(expect.any(String));

      // The link works once: used again while the lock lasts, it is refused like no link.
      const again = await loginOn(t.app, owner, {
        username: body.email,
        password: body.password,
        unlock_token: unlockToken,
      });
      expect(again.statusCode).toBe(423);
      expect(again.json().detail).toContain('unlock link was used');

      // Nor is it a key for another address.
      const elsewhere = await loginOn(t.app, newClient(), {
        username: `someone-else-${randomUUID()}@example.jp`,
        password: body.password,
        unlock_token: unlockToken,
      });
      expect(elsewhere.statusCode).toBe(401);

      // The lock ends with its hour, and the link with it.
      t.clock.advance(HOUR);
      const afterHour = await loginOn(t.app, owner, {
        username: body.email,
        password: body.password,
      });
      expect(afterHour.statusCode).toBe(200);
    },
    180_000,
  );

  it.skipIf(skip)(
    'lets one address contribute only its share: its guesses all hour long leave the owner free',
    async () => {
      const { body } = await registerActive(t);
      const { attemptsPerClient, failuresPerAccountFromOneClient } = DEFAULT_LOGIN_THROTTLE;
      const stranger = newClient();
      const statuses: number[] = [];
      // As many guesses as the per-address limit lets through in an hour: more than the cap.
      for (let quarter = 0; quarter < 4; quarter += 1) {
        if (quarter > 0) t.clock.advance(15 * 60 * 1000);
        for (let i = 0; i < attemptsPerClient; i += 1) {
          const guess = await loginOn(t.app, stranger, {
            username: body.email,
            password: `guess ${quarter}-${i}`,
          });
          statuses.push(guess.statusCode);
        }
      }
      expect(statuses.length).toBeGreaterThan(CAP);
      const owner = { username: body.email, password: body.password };
      expect((await loginOn(second, newClient(), owner)).statusCode).toBe(200);
      expect(statuses.filter((status) => status === 401)).toHaveLength(
        failuresPerAccountFromOneClient,
      );
      expect(new Set(statuses.slice(failuresPerAccountFromOneClient))).toEqual(new Set([429]));
      await t.sendMail();
      expect(unlockMails(body.email)).toEqual([]);
    },
    120_000,
  );

  it.skipIf(skip)(
    'locks an address with no account the same way, and mails nobody',
    async () => {
      const email = `nobody-${randomUUID()}@example.jp`;
      const guesses = await Promise.all(
        Array.from({ length: CAP + 5 }, () =>
          loginOn(t.app, newClient(), { username: email, password: 'a guess' }),
        ),
      );
      const statuses = guesses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(CAP);
      expect(statuses.filter((status) => status === 423)).toHaveLength(5);
      await t.sendMail();
      expect(t.mailbox.filter((mail) => mail.to === email)).toEqual([]);
    },
    120_000,
  );

  it.skipIf(skip)(
    'answers 429 with Retry-After when one client makes too many attempts, known email or not',
    async () => {
      const { body } = await registerActive(t);
      const client = newClient();
      const limit = DEFAULT_LOGIN_THROTTLE.attemptsPerClient;
      const attempts = await Promise.all(
        Array.from({ length: limit }, (_, i) =>
          loginFrom(t, client, `someone-${i}-${randomUUID()}@example.jp`, 'guess'),
        ),
      );
      expect(attempts.map((response) => response.statusCode)).toEqual(Array(limit).fill(401));
      const known = await loginFrom(t, client, body.email, body.password);
      const unknown = await loginFrom(t, client, 'nobody-else@example.jp', 'guess');
      expect([known.statusCode, unknown.statusCode]).toEqual([429, 429]);
      expect(known.json().code).toBe('too_many_attempts');
      expect(Number(known.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      t.clock.advance(15 * 60 * 1000);
      expect((await loginFrom(t, client, body.email, body.password)).statusCode).toBe(200);
    },
    120_000,
  );

  it.skipIf(skip)(
    'lifts the lock when the password is reset',
    async () => {
      const { body } = await registerActive(t);
      await Promise.all(
        Array.from({ length: CAP }, () =>
          loginFrom(t, newClient(), body.email, 'not the password'),
        ),
      );
      expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(423);
      await t.request({ method: 'POST', url: '/v1/password_reset', body: { email: body.email } });
      const resetMail = t.mailbox.findLast((mail) => mail.link?.includes('/password-reset?'))!;
      const token = new URL(resetMail.link!).searchParams.get('token')!;
      const newPassword = 'a brand new passphrase';
      const reset = await t.request({
        method: 'POST',
        url: '/v1/password_reset/confirm',
        body: { token, password: newPassword },
      });
      expect(reset.statusCode).toBe(204);
      expect((await loginFrom(t, newClient(), body.email, newPassword)).statusCode).toBe(200);
    },
    120_000,
  );
});
