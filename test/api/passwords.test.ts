/**
 * Passwords: argon2id at OWASP's minimum for new hashes, older scrypt hashes verified and
 * replaced at the next sign-in, and the breached-password list refused wherever a password
 * is chosen (registration, reset, change).
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { breachedPasswordCount } from '../../server/domain/accounts/breachedPasswords';
import { createTestApp, type TestApp } from '../support/testApp';
import { loginFrom, newClient, registerActive, registrationBody } from './accountsSupport';

const ARGON2ID = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function storedHash(userId: string): Promise<string> {
  const [row] = await t.ctx.database.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  return row!.passwordHash!;
}

/** A hash as the earlier scheme wrote it: scrypt N=2^15, r=8, p=1 of the NFKC password. */
function legacyScryptHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, {
    N: 2 ** 15,
    r: 8,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  return ['scrypt', 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('password hashing', () => {
  it('hashes with argon2id, 19 MiB, two passes, one lane', async () => {
    const { login } = await registerActive(t);
    expect(await storedHash(login.userId)).toMatch(ARGON2ID);
  });

  it('signs in a member with a legacy scrypt hash and replaces it with argon2id', async () => {
    const { body, login } = await registerActive(t);
    const legacy = legacyScryptHash(body.password);
    await t.ctx.database.db
      .update(users)
      .set({ passwordHash: legacy })
      .where(eq(users.id, login.userId));

    const wrong = await loginFrom(t, newClient(), body.email, 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(await storedHash(login.userId)).toBe(legacy);

    const first = await loginFrom(t, newClient(), body.email, body.password);
    expect(first.statusCode).toBe(200);
    const upgraded = await storedHash(login.userId);
    expect(upgraded).toMatch(ARGON2ID);
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(200);
    expect(await storedHash(login.userId)).toBe(upgraded);
  });
});

describe('the breached-password list', () => {
  it('holds at least 100,000 passwords', () => {
    expect(breachedPasswordCount()).toBeGreaterThanOrEqual(100_000);
  });

  const tooCommon = [{ field: 'password', code: 'password_too_common' }];

  it('refuses "password1234" (any case, full-width too) at registration', async () => {
    for (const password of [
      'password1234',
      'PassWord1234',
      'ｐａｓｓｗｏｒｄ１２３４',
      'iloveyou1',
    ]) {
      const response = await t.request({
        method: 'POST',
        url: '/v1/user',
        body: registrationBody({ password }),
      });
      expect(response.statusCode, password).toBe(422);
      expect(response.json().errors).toEqual(tooCommon);
    }
  });

  it('refuses it at a password reset and a password change', async () => {
    const { body, login } = await registerActive(t);
    await t.request({ method: 'POST', url: '/v1/password_reset', body: { email: body.email } });
    const token = new URL(t.mailbox.at(-1)!.link!).searchParams.get('token')!;
    const reset = await t.request({
      method: 'POST',
      url: '/v1/password_reset/confirm',
      body: { token, password: 'password1234' },
    });
    expect(reset.statusCode).toBe(422);
    expect(reset.json().errors).toEqual(tooCommon);

    const change = await t.request({
      method: 'POST',
      url: '/v1/mypage/password',
      token: login.accessToken,
      body: { current_password: body.password, new_password: 'password1234' },
    });
    expect(change.statusCode).toBe(422);
    expect(change.json().errors).toEqual([{ field: 'new_password', code: 'password_too_common' }]);
  });

  it('accepts a long passphrase that is on no list', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/user',
      body: registrationBody({ password: 'lanterns over the kamo river at dusk' }),
    });
    expect(response.statusCode).toBe(202);
  });
});
