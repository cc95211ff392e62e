/**
 * The per-client rate limits of the calls that cost us or a stranger's inbox: every call
 * that sends mail, accepts an upload, searches or reports a death, and the session layer.
 * Each route of a group counts against the group's one counter per address; over it the
 * answer is 429 with Retry-After and a detail, before the call does any work.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFrom } from '../../src/i18n/I18nProvider';
import { SIGN_IN_FAILURE_TEXT } from '../../src/screens/login/signInFailure';
import { createSessionApi } from '../../src/services/api/session';
import { isRateLimitedAnswer } from '../../src/services/http/rateLimitNotice';
import { createSecondInstance, createTestApp, type TestApp } from '../support/testApp';
import { newClient } from './accountsSupport';
import { cookieKeepingFetch } from './httpClientHarness';

const ONE_EACH = {
  RATE_LIMIT_MAIL_PER_HOUR: '1',
  RATE_LIMIT_UPLOAD_PER_HOUR: '1',
  RATE_LIMIT_SEARCH_PER_MINUTE: '1',
  RATE_LIMIT_DEATH_REPORT_PER_HOUR: '1',
  RATE_LIMIT_AUTH_PER_MINUTE: '1',
};

type Call = Pick<InjectOptions, 'method' | 'url'>;

/** Every limited route, by group (server/http/rateLimits.ts and the routes' `limitedAs`). */
const GROUPS: Record<string, Call[]> = {
  mail: [
    { method: 'POST', url: '/v1/user' },
    { method: 'POST', url: '/v1/user/create_inflow_user' },
    { method: 'POST', url: '/v1/user/create_user_with_external_provider' },
    { method: 'POST', url: '/v1/user/resend_activation' },
    { method: 'POST', url: '/v1/password_reset' },
    { method: 'POST', url: '/v1/mypage/email' },
    { method: 'POST', url: '/v1/time_capsule_letter' },
    { method: 'POST', url: '/v1/data_exports' },
  ],
  upload: [{ method: 'PUT', url: '/files/uploads/anything.png' }],
  search: [{ method: 'GET', url: '/v1/user_search?q=a' }],
  deathReport: [
    { method: 'POST', url: '/v1/fpos/report_death_suspected' },
    { method: 'POST', url: '/v1/fpos/death_confirmation' },
    { method: 'POST', url: '/v1/fpos/integration/report_death_suspected' },
  ],
  auth: [
    { method: 'GET', url: '/api/auth/csrf' },
    { method: 'GET', url: '/api/auth/session' },
    { method: 'GET', url: '/api/auth/providers' },
    { method: 'POST', url: '/api/auth/callback/credentials' },
    { method: 'POST', url: '/api/auth/signout' },
    { method: 'POST', url: '/api/auth/_log' },
  ],
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(ONE_EACH);
});
afterAll(async () => {
  await t.close();
});

const call = (app: FastifyInstance, remoteAddress: string, { method, url }: Call) =>
  app.inject({ method, url, remoteAddress, payload: method === 'GET' ? undefined : {} });

describe('rate limits', () => {
  it.each(Object.entries(GROUPS))(
    'limits every %s call per address, the routes of the group together',
    async (_group, calls) => {
      const client = newClient();
      const first = await call(t.app, client, calls[0]!);
      expect(first.statusCode).not.toBe(429);
      for (const each of calls) {
        const refused = await call(t.app, client, each);
        expect(refused.statusCode, `${each.method} ${each.url}`).toBe(429);
        expect(refused.json()).toEqual({
          code: 'rate_limited',
          detail: expect.stringMatching(/^too many requests; try again in /),
        });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      // Another address has a counter of its own.
      expect((await call(t.app, newClient(), calls[0]!)).statusCode).not.toBe(429);
    },
  );

  it('tells the member in Japanese: the toast for any call, the login form for a sign-in', async () => {
    const bundle = bundleFrom(readFileSync(path.resolve('src/i18n/ja/translation.ftl'), 'utf8'));
    const text = (id: string) => bundle.formatPattern(bundle.getMessage(id)!.value!);
    const client = newClient();
    await call(t.app, client, GROUPS.mail![3]!);
    const refused = await call(t.app, client, GROUPS.mail![3]!);
    expect(isRateLimitedAnswer(refused.statusCode, refused.json())).toBe(true);
    expect(text('error-rate_limited')).toBe(
      '短時間に操作が集中したため、受け付けられませんでした。しばらく時間をおいてから再度お試しください。',
    );

    // The login screen's own client against a listening server over its /api/auth limit.
    const session = createSessionApi({
      origin: await t.app.listen({ port: 0, host: '127.0.0.1' }),
      fetchImpl: cookieKeepingFetch(),
    });
    // The csrf read is the address's one call of the minute; the sign-in is over the limit.
    const result = await session.signInWithCredentials(
      { username: 'someone@example.jp', password: 'a long enough password' },
      '/dashboard',
    );
    expect(result).toMatchObject({ ok: false, status: 429, error: 'too_many_attempts' });
    expect(text(SIGN_IN_FAILURE_TEXT[result.error!])).toBe(
      'ログイン試行回数が上限に達しました。しばらく時間をおいてから再度お試しください。',
    );
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('rate limits in Redis', () => {
  let shared: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    shared = await createTestApp({
      ...ONE_EACH,
      RATE_LIMIT_MAIL_PER_HOUR: '2',
      REDIS_URL: redisUrl!,
      REDIS_PREFIX: `test:${randomUUID()}:`,
    });
    second = await createSecondInstance(shared);
  });
  afterAll(async () => {
    await second.close();
    await shared.close();
  });

  it('counts one address across instances', async () => {
    const client = newClient();
    const reset = GROUPS.mail![3]!;
    expect((await call(shared.app, client, reset)).statusCode).not.toBe(429);
    expect((await call(second, client, reset)).statusCode).not.toBe(429);
    const refused = await call(shared.app, client, reset);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
