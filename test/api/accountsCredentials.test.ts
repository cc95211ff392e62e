import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailChanges, users } from '../../server/db/schema';
import { sweepExpiredAccountData } from '../../server/domain/accounts/sweep';
import { createTestApp, type TestApp } from '../support/testApp';
import { loginFrom, newClient, registerActive } from './accountsSupport';
import { DEFAULT_LOGIN_THROTTLE } from '../../server/domain/accounts/loginThrottle';

const HOUR = 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A signed-in POST from a given client address (the throttle is keyed on it). */
const post = async (url: string, token: string | undefined, body: object, client = newClient()) => {
  const response = await t.app.inject({
    method: 'POST',
    url,
    remoteAddress: client,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: body,
  });
  await t.sendMail();
  return response;
};

/** The token of the newest mail to `to`, read from its link. */
function linkTokenSentTo(to: string): string | null {
  const mail = t.mailbox.filter((message) => message.to === to).at(-1);
  if (!mail?.link) return null;
  return new URL(mail.link).searchParams.get('token');
}

const newAddress = () => `moved-${randomUUID()}@example.jp`;

describe('password change', () => {
  it('sets the new password, ends every other session and answers a fresh one', async () => {
    const { body, login } = await registerActive(t);
    const other = await loginFrom(t, newClient(), body.email, body.password);
    const changed = await post('/v1/mypage/password', login.accessToken, {
      current_password: body.password,
      new_password: 'a new and longer passphrase',
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json();
    expect(fresh).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });

    // Both earlier sessions (this device's and the other one) are over; the fresh one works.
    for (const token of [login.refreshToken, other.json().refreshToken]) {
      const refresh = await post('/v1/refresh', undefined, { refresh_token: token });
      expect(refresh.statusCode).toBe(401);
    }
    const refreshed = await post('/v1/refresh', undefined, { refresh_token: fresh.refreshToken });
    expect(refreshed.statusCode).toBe(200);

    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(401);
    const withNew = await loginFrom(t, newClient(), body.email, 'a new and longer passphrase');
    expect(withNew.statusCode).toBe(200);
  });

  it('refuses a wrong current password with a field error, not a 401, and changes nothing', async () => {
    const { body, login } = await registerActive(t);
    const refused = await post('/v1/mypage/password', login.accessToken, {
      current_password: 'not the password at all',
      new_password: 'a new and longer passphrase',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([
      { field: 'current_password', code: 'current_password_incorrect' },
    ]);
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(200);
    const refresh = await post('/v1/refresh', undefined, { refresh_token: login.refreshToken });
    expect(refresh.statusCode).toBe(200);
  });

  it('applies the password policy to the new password', async () => {
    const { body, login } = await registerActive(t);
    for (const [newPassword, code] of [
      ['short', 'password_too_short'],
      ['password123', 'password_too_common'],
      ['x'.repeat(129), 'password_too_long'],
    ] as const) {
      const refused = await post('/v1/mypage/password', login.accessToken, {
        current_password: body.password,
        new_password: newPassword,
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual([{ field: 'new_password', code }]);
    }
  });

  it('caps wrong current passwords of a signed-in member, apart from the sign-in lock strangers cause', async () => {
    const { body, login } = await registerActive(t);
    const client = newClient();
    const cap = DEFAULT_LOGIN_THROTTLE.failuresWithUnlockLink;
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= cap; attempt += 1) {
      const answer = await post(
        '/v1/mypage/password',
        login.accessToken,
        { current_password: `wrong guess ${attempt}`, new_password: 'a new and longer passphrase' },
        client,
      );
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([...Array(cap).fill(422), 429]);
    // Over the cap the right password waits too, until the hour is over.
    const refused = await post(
      '/v1/mypage/password',
      login.accessToken,
      { current_password: body.password, new_password: 'a new and longer passphrase' },
      client,
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('too_many_attempts');
    // Signing in is another counter: the member is not locked out of the account.
    expect((await loginFrom(t, client, body.email, body.password)).statusCode).toBe(200);
    t.clock.advance(60 * 60 * 1000);
    // The access token has expired meanwhile too (15 minutes): sign in afresh.
    const again = await loginFrom(t, newClient(), body.email, body.password);
    const afterWait = await post(
      '/v1/mypage/password',
      again.json().accessToken,
      { current_password: body.password, new_password: 'a new and longer passphrase' },
      client,
    );
    expect(afterWait.statusCode).toBe(200);
  });

  it('needs a signed-in member', async () => {
    const refused = await post('/v1/mypage/password', undefined, {
      current_password: 'whatever it is',
      new_password: 'a new and longer passphrase',
    });
    expect(refused.statusCode).toBe(401);
  });
});

describe('email change', () => {
  it('mails a link to the new address and changes the address only when it is opened', async () => {
    const { body, login } = await registerActive(t);
    const target = newAddress();
    const asked = await post('/v1/mypage/email', login.accessToken, {
      current_password: body.password,
      new_email: target,
    });
    expect(asked.statusCode).toBe(202);
    const token = linkTokenSentTo(target);
    expect(token).toBeTruthy();
    expect(t.mailbox.at(-1)!.link).toMatch(
      /^http:\/\/localhost:3000\/mypage\/email-confirm\?token=/,
    );

    // Nothing changed yet: the old address still signs in, the new one does not.
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(200);
    expect((await loginFrom(t, newClient(), target, body.password)).statusCode).toBe(401);

    const mailsBefore = t.mailbox.length;
    const confirmed = await post('/v1/mypage/email/confirm', undefined, { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ email: target });
    expect((await loginFrom(t, newClient(), target, body.password)).statusCode).toBe(200);
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(401);
    await new Promise((resolve) => setImmediate(resolve));
    const notice = t.mailbox.slice(mailsBefore).find((mail) => mail.to === body.email);
    expect(notice?.text).toContain(target);

    // The link works once.
    const reused = await post('/v1/mypage/email/confirm', undefined, { token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe('email_change_invalid');
  });

  it('lets a link expire after 24 hours', async () => {
    const { body, login } = await registerActive(t);
    const target = newAddress();
    await post('/v1/mypage/email', login.accessToken, {
      current_password: body.password,
      new_email: target,
    });
    const token = linkTokenSentTo(target);
    t.clock.advance(24 * HOUR + 1000);
    const expired = await post('/v1/mypage/email/confirm', undefined, { token });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('email_change_invalid');
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(200);
    await sweepExpiredAccountData(t.ctx.database.db, new Date(t.clock.now().getTime() + 25 * HOUR));
    const left = await t.ctx.database.db
      .select()
      .from(emailChanges)
      .where(eq(emailChanges.newEmail, target));
    expect(left).toHaveLength(0);
  });

  it('keeps only the newest request’s link working', async () => {
    const { body, login } = await registerActive(t);
    const first = newAddress();
    const second = newAddress();
    await post('/v1/mypage/email', login.accessToken, {
      current_password: body.password,
      new_email: first,
    });
    await post('/v1/mypage/email', login.accessToken, {
      current_password: body.password,
      new_email: second,
    });
    const stale = await post('/v1/mypage/email/confirm', undefined, {
      token: linkTokenSentTo(first),
    });
    expect(stale.statusCode).toBe(400);
    const current = await post('/v1/mypage/email/confirm', undefined, {
      token: linkTokenSentTo(second),
    });
    expect(current.statusCode).toBe(200);
  });

  it('answers a taken address exactly like a free one and mails its holder a notice, not a link', async () => {
    const holder = await registerActive(t);
    const { body, login } = await registerActive(t);
    const free = await post('/v1/mypage/email', login.accessToken, {
      current_password: body.password,
      new_email: newAddress(),
    });
    const taken = await post('/v1/mypage/email', login.accessToken, {
      current_password: body.password,
      new_email: holder.body.email.toUpperCase(),
    });
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.json()).toEqual(free.json());
    const notice = t.mailbox.at(-1)!;
    expect(notice.to).toBe(holder.body.email.toUpperCase());
    expect(notice.link).toBe('http://localhost:3000/login');
    const [member] = await t.ctx.database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, login.userId));
    expect(member!.email).toBe(body.email);
  });

  it('answers 409 to the opener when the address found an account after the link was sent', async () => {
    const { body, login } = await registerActive(t);
    const target = newAddress();
    await post('/v1/mypage/email', login.accessToken, {
      current_password: body.password,
      new_email: target,
    });
    const token = linkTokenSentTo(target);
    await registerActive(t, { email: target });
    const conflict = await post('/v1/mypage/email/confirm', undefined, { token });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('email_unavailable');
  });

  it('refuses a wrong current password, the same address and a malformed one', async () => {
    const { body, login } = await registerActive(t);
    const mailsBefore = t.mailbox.length;
    const wrong = await post('/v1/mypage/email', login.accessToken, {
      current_password: 'not the password at all',
      new_email: newAddress(),
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual([
      { field: 'current_password', code: 'current_password_incorrect' },
    ]);
    const same = await post('/v1/mypage/email', login.accessToken, {
      current_password: body.password,
      new_email: ` ${body.email.toUpperCase()} `,
    });
    expect(same.statusCode).toBe(422);
    expect(same.json().errors).toEqual([{ field: 'new_email', code: 'email_unchanged' }]);
    const malformed = await post('/v1/mypage/email', login.accessToken, {
      current_password: body.password,
      new_email: 'no-at-sign',
    });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().errors).toEqual([{ field: 'new_email', code: 'email_invalid' }]);
    expect(t.mailbox.length).toBe(mailsBefore);
  });

  it('refuses an unknown token and a caller who is not signed in', async () => {
    const unknown = await post('/v1/mypage/email/confirm', undefined, { token: 'nonsense' });
    expect(unknown.statusCode).toBe(400);
    const anonymous = await post('/v1/mypage/email', undefined, {
      current_password: 'whatever it is',
      new_email: newAddress(),
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
