import { and, eq, lt, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountTokens,
  connections,
  externalIdentities,
  loginThrottle,
  memorialPageMembers,
  memorialPages,
  refreshTokens,
  users,
} from '../../server/db/schema';
import { sweepExpiredRegistrations } from '../../server/domain/accounts/registration';
import { sweepExpiredAccountData } from '../../server/domain/accounts/sweep';
import { REFRESH_REUSE_GRACE_MS } from '../../server/domain/accounts/refreshTokens';
import { issueProviderAssertion } from '../../server/domain/accounts/providerAssertion';
import { connectMembers, createMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { jpegPhoto, upload } from './memorialSupport';
import {
  lastActivationLink,
  loginFrom,
  newClient,
  registerActive,
  registrationBody,
} from './accountsSupport';

const HOUR = 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const confirmUrl = (token: string, email: string) =>
  `/v1/user/confirm/${encodeURIComponent(token)}/${encodeURIComponent(email)}`;

async function userByEmail(email: string) {
  const [user] = await t.ctx.database.db.select().from(users).where(eq(users.email, email));
  return user;
}

describe('POST /v1/user (registration)', () => {
  it('creates an inactive account with its own page and mails a 24-hour activation link', async () => {
    const icon = await upload(t, await jpegPhoto(32, 32), { token: undefined });
    const body = registrationBody({ admin_pet_id: 'pet-42', user_icon_url: icon });
    const response = await t.request({ method: 'POST', url: '/v1/user', body });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ detail: expect.any(String) });

    const user = await userByEmail(body.email);
    expect(user).toMatchObject({
      status: 'inactive',
      registrationAdminPetId: 'pet-42',
      iconName: icon,
      nameReading: '\u3084\u307e\u3060\u306f\u306a\u3053\u5c71\u7530\u82b1\u5b50',
      address: body.address,
      birthdate: '1955-05-05',
      sexCode: 2,
    });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const [page] = await t.ctx.database.db
      .select()
      .from(memorialPages)
      .where(eq(memorialPages.ownerUserId, user!.id));
    expect(page).toMatchObject({ type: 'self', lastName: body.last_name, createdBy: user!.id });
    const members = await t.ctx.database.db
      .select()
      .from(memorialPageMembers)
      .where(eq(memorialPageMembers.memorialPageId, page!.id));
    expect(members).toEqual([expect.objectContaining({ userId: user!.id, role: 'admin' })]);

    const mail = t.mailbox.at(-1)!;
    expect(mail.to).toBe(body.email);
    const { link, email } = lastActivationLink(t);
    expect(link.startsWith('http://localhost:3000/activate?token=')).toBe(true);
    expect(email).toBe(body.email);
    expect(mail.text).toContain(link);
    const [token] = await t.ctx.database.db
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.userId, user!.id));
    expect(token!.expiresAt.getTime() - token!.createdAt.getTime()).toBe(24 * HOUR);
  });

  it('answers an address that already has an account exactly like a new one, and mails a notice', async () => {
    const { body } = await registerActive(t);
    const before = t.mailbox.length;
    const again = await t.request({
      method: 'POST',
      url: '/v1/user',
      body: registrationBody({ email: body.email.toUpperCase() }),
    });
    const fresh = await t.request({ method: 'POST', url: '/v1/user', body: registrationBody() });
    expect(again.statusCode).toBe(fresh.statusCode);
    expect(again.json()).toEqual(fresh.json());
    expect(t.mailbox).toHaveLength(before + 2);
    expect(t.mailbox[before]!.to).toBe(body.email.toUpperCase());
    expect(t.mailbox[before]!.link).toBe('http://localhost:3000/login');
    const holders = await t.ctx.database.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${body.email.toLowerCase()}`);
    expect(holders).toHaveLength(1);
  });

  it('replaces a registration never activated with the newer one, whose link alone activates', async () => {
    const body = registrationBody();
    await t.request({ method: 'POST', url: '/v1/user', body });
    const first = lastActivationLink(t);
    const again = await t.request({
      method: 'POST',
      url: '/v1/user',
      body: { ...body, password: 'the newer registration typed this' },
    });
    expect(again.statusCode).toBe(202);
    const second = lastActivationLink(t);
    expect(second.token).not.toBe(first.token);
    const holders = await t.ctx.database.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${body.email.toLowerCase()}`);
    expect(holders).toHaveLength(1);
    const stale = await t.request({
      method: 'POST',
      url: confirmUrl(first.token, first.email),
      body: { password: body.password },
    });
    expect(stale.json().code).toBe('activation_invalid');
    const activated = await t.request({
      method: 'POST',
      url: confirmUrl(second.token, second.email),
      body: { password: 'the newer registration typed this' },
    });
    expect(activated.statusCode).toBe(200);
    // The newer registration's password stands; the replaced one's never took effect.
    expect(
      (await loginFrom(t, newClient(), body.email, 'the newer registration typed this')).statusCode,
    ).toBe(200);
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(401);
  });

  it('lets a registration expire with its link: no fresh link is mailed for it after 24 hours', async () => {
    const body = registrationBody();
    await t.request({ method: 'POST', url: '/v1/user', body });
    const resend = () =>
      t.request({ method: 'POST', url: '/v1/user/resend_activation', body: { email: body.email } });
    let before = t.mailbox.length;
    await resend();
    expect(t.mailbox).toHaveLength(before + 1);
    t.clock.advance(24 * HOUR);
    before = t.mailbox.length;
    expect((await resend()).statusCode).toBe(202);
    expect(t.mailbox).toHaveLength(before);
  });

  it('answers 422 with one code per bad field', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/user',
      body: registrationBody({
        email: 'not-an-address',
        password: 'password123',
        first_name_kana: '\u30cf\u30ca\u30b3',
        address: 'Tokyo',
        birthdate: '2030-01-01',
        sex_code: 5,
        last_name: undefined,
      }),
    });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.code).toBe('validation_failed');
    expect(
      Object.fromEntries(
        body.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
      ),
    ).toEqual({
      email: 'email_invalid',
      password: 'password_too_common',
      first_name_kana: 'kana_hiragana_only',
      address: 'prefecture_invalid',
      birthdate: 'birthdate_in_future',
      sex_code: 'sex_code_invalid',
      last_name: 'required',
    });
  });

  it('accepts sexCode for sex_code', async () => {
    const body = registrationBody({ sex_code: undefined, sexCode: 9 });
    const response = await t.request({ method: 'POST', url: '/v1/user', body });
    expect(response.statusCode).toBe(202);
    expect((await userByEmail(body.email))!.sexCode).toBe(9);
  });

  it("refuses an icon name that is not of the upload signer's shape", async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/user',
      body: registrationBody({ user_icon_url: '../secrets.json' }),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([{ field: 'user_icon_url', code: 'invalid' }]);
  });
});

describe('POST /v1/user/create_inflow_user', () => {
  it('records the inflow id', async () => {
    const body = { ...registrationBody(), inflow_id: 'partner-7' };
    const response = await t.request({ method: 'POST', url: '/v1/user/create_inflow_user', body });
    expect(response.statusCode).toBe(202);
    expect((await userByEmail(body.email))!.inflowId).toBe('partner-7');
  });

  it('requires the inflow id', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/user/create_inflow_user',
      body: registrationBody(),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([{ field: 'inflow_id', code: 'required' }]);
  });
});

describe('/v1/user/confirm/{token}/{email} (activation)', () => {
  const activate = (token: string, email: string, password: string) =>
    t.request({ method: 'POST', url: confirmUrl(token, email), body: { password } });

  it('activates once, with the registration’s password, and answers a login session', async () => {
    const body = registrationBody();
    await t.request({ method: 'POST', url: '/v1/user', body });
    const { token, email } = lastActivationLink(t);
    // The link alone, or with another password, activates nothing and spends nothing.
    const bare = await t.request({ method: 'GET', url: confirmUrl(token, email) });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({
      code: 'activation_password_required',
      detail: expect.any(String),
    });
    const wrong = await activate(token, email, 'not what was registered');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'activation_password_mismatch',
      detail: expect.any(String),
    });
    expect((await userByEmail(body.email))!.status).toBe('inactive');
    const first = await activate(token, email, body.password);
    expect(first.statusCode).toBe(200);
    const user = await userByEmail(body.email);
    expect(first.json()).toEqual({
      userId: user!.id,
      username: body.username,
      memorialPageId: expect.any(String),
      userIconUrl: null,
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
    });
    expect(user!.status).toBe('active');
    const second = await activate(token, email, body.password);
    expect(second.statusCode).toBe(400);
    expect(second.json().code).toBe('activation_invalid');
  });

  it('refuses a link after 24 hours, for another email, or unknown', async () => {
    const body = registrationBody();
    await t.request({ method: 'POST', url: '/v1/user', body });
    const { token, email } = lastActivationLink(t);
    const wrongEmail = await activate(token, `x${email}`, body.password);
    const unknown = await activate('nope', email, body.password);
    t.clock.advance(24 * HOUR + 1000);
    const expired = await activate(token, email, body.password);
    for (const response of [wrongEmail, unknown, expired]) {
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('activation_invalid');
    }
  });
});

describe('POST /v1/login', () => {
  it('signs in with the email and password, form-encoded', async () => {
    const { body, login } = await registerActive(t);
    const response = await loginFrom(t, newClient(), body.email, body.password);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({
      userId: login.userId,
      username: body.username,
      memorialPageId: login.memorialPageId,
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
    });
    // The access token lives at most 15 minutes.
    const claims = decodeJwt(response.json().accessToken);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(15 * 60);
    const detail = await t.request({
      method: 'GET',
      url: `/v1/user/${login.userId}`,
      token: response.json().accessToken,
    });
    expect(detail.statusCode).toBe(200);
  });

  it('answers the same 401 for a wrong password, an unknown email and an inactive account', async () => {
    const { body } = await registerActive(t);
    const inactive = registrationBody();
    await t.request({ method: 'POST', url: '/v1/user', body: inactive });
    const client = newClient();
    const answers = await Promise.all([
      loginFrom(t, client, body.email, 'wrong password here'),
      loginFrom(t, client, `nobody-${body.email}`, 'wrong password here'),
      loginFrom(t, client, inactive.email, inactive.password),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ code: 'invalid_credentials', detail: expect.any(String) });
    }
  });

  it('answers 422 for blank fields', async () => {
    const response = await loginFrom(t, newClient(), '', '');
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      { field: 'username', code: 'required' },
      { field: 'password', code: 'required' },
    ]);
  });
});

describe('POST /v1/refresh and /v1/logout', () => {
  const refresh = (token: string) =>
    t.request({ method: 'POST', url: '/v1/refresh', body: { refresh_token: token } });

  it('rotates: the new pair works, the old token is spent', async () => {
    const { login } = await registerActive(t);
    const first = await refresh(login.refreshToken);
    expect(first.statusCode).toBe(200);
    const pair = first.json();
    expect(pair).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect(pair.refreshToken).not.toBe(login.refreshToken);
    const detail = await t.request({
      method: 'GET',
      url: `/v1/user/${login.userId}`,
      token: pair.accessToken,
    });
    expect(detail.statusCode).toBe(200);
    expect((await refresh(pair.refreshToken)).statusCode).toBe(200);
  });

  it('revokes the whole family when a spent token comes back', async () => {
    const { login } = await registerActive(t);
    const next = (await refresh(login.refreshToken)).json().refreshToken as string;
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    const reused = await refresh(login.refreshToken);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().code).toBe('refresh_token_reused');
    const successor = await refresh(next);
    expect(successor.statusCode).toBe(401);
    expect(successor.json().code).toBe('invalid_refresh_token');
  });

  it('answers a spent token sent again within a minute (a lost answer) with a successor of its own', async () => {
    const { login } = await registerActive(t);
    const first = (await refresh(login.refreshToken)).json().refreshToken as string;
    t.clock.advance(REFRESH_REUSE_GRACE_MS - 1000);
    const again = await refresh(login.refreshToken);
    expect(again.statusCode).toBe(200);
    const second = again.json().refreshToken as string;
    expect(second).not.toBe(first);
    // Both successors live on; the family was not revoked.
    expect((await refresh(first)).statusCode).toBe(200);
    expect((await refresh(second)).statusCode).toBe(200);
  });

  it('refuses unknown and expired tokens', async () => {
    const { login } = await registerActive(t);
    expect((await refresh('not-a-token')).json().code).toBe('invalid_refresh_token');
    t.clock.advance(30 * 24 * HOUR + 1000);
    const expired = await refresh(login.refreshToken);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('invalid_refresh_token');
    expect((await t.request({ method: 'POST', url: '/v1/refresh', body: {} })).statusCode).toBe(
      422,
    );
  });

  it('logout revokes the family', async () => {
    const { login } = await registerActive(t);
    const logout = await t.request({
      method: 'POST',
      url: '/v1/logout',
      body: { refresh_token: login.refreshToken },
    });
    expect(logout.statusCode).toBe(204);
    expect((await refresh(login.refreshToken)).json().code).toBe('invalid_refresh_token');
  });
});

describe('password reset', () => {
  it('always answers 202 and mails only a known address', async () => {
    const { body } = await registerActive(t);
    const before = t.mailbox.length;
    const unknown = await t.request({
      method: 'POST',
      url: '/v1/password_reset',
      body: { email: 'nobody-here@example.jp' },
    });
    expect(unknown.statusCode).toBe(202);
    expect(t.mailbox).toHaveLength(before);
    const known = await t.request({
      method: 'POST',
      url: '/v1/password_reset',
      body: { email: body.email },
    });
    expect(known.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    expect(t.mailbox.at(-1)!.link).toMatch(/^http:\/\/localhost:3000\/password-reset\?token=/);
  });

  it('sets the new password, revokes every refresh token and works once', async () => {
    const { body, login } = await registerActive(t);
    const second = (await loginFrom(t, newClient(), body.email, body.password)).json();
    await t.request({ method: 'POST', url: '/v1/password_reset', body: { email: body.email } });
    const token = new URL(t.mailbox.at(-1)!.link!).searchParams.get('token')!;
    const weak = await t.request({
      method: 'POST',
      url: '/v1/password_reset/confirm',
      body: { token, password: 'short' },
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors).toEqual([{ field: 'password', code: 'password_too_short' }]);
    const done = await t.request({
      method: 'POST',
      url: '/v1/password_reset/confirm',
      body: { token, password: 'the new long passphrase' },
    });
    expect(done.statusCode).toBe(204);
    for (const refreshToken of [login.refreshToken, second.refreshToken]) {
      const refreshed = await t.request({
        method: 'POST',
        url: '/v1/refresh',
        body: { refresh_token: refreshToken },
      });
      expect(refreshed.json().code).toBe('invalid_refresh_token');
    }
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(401);
    expect(
      (await loginFrom(t, newClient(), body.email, 'the new long passphrase')).statusCode,
    ).toBe(200);
    const again = await t.request({
      method: 'POST',
      url: '/v1/password_reset/confirm',
      body: { token, password: 'yet another passphrase' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('reset_invalid');
  });

  it('mails no link for a registration nobody has activated', async () => {
    const body = registrationBody();
    await t.request({ method: 'POST', url: '/v1/user', body });
    const before = t.mailbox.length;
    const asked = await t.request({
      method: 'POST',
      url: '/v1/password_reset',
      body: { email: body.email },
    });
    expect(asked.statusCode).toBe(202);
    expect(t.mailbox).toHaveLength(before);
    expect((await userByEmail(body.email))!.status).toBe('inactive');
  });

  it('refuses a link after an hour', async () => {
    const { body } = await registerActive(t);
    await t.request({ method: 'POST', url: '/v1/password_reset', body: { email: body.email } });
    const token = new URL(t.mailbox.at(-1)!.link!).searchParams.get('token')!;
    t.clock.advance(HOUR + 1000);
    const late = await t.request({
      method: 'POST',
      url: '/v1/password_reset/confirm',
      body: { token, password: 'the new long passphrase' },
    });
    expect(late.json().code).toBe('reset_invalid');
  });
});

describe('GET /v1/user/{userId}', () => {
  it('answers the profile with the icon as a signed GET URL', async () => {
    const icon = await upload(t, await jpegPhoto(32, 32), { token: undefined });
    const { body, login } = await registerActive(t, { user_icon_url: icon });
    const viewer = await createMember(t);
    const response = await t.request({
      method: 'GET',
      url: `/v1/user/${login.userId}`,
      token: viewer.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: login.userId,
      username: body.username,
      lastName: body.last_name,
      firstName: body.first_name,
      lastNameKana: body.last_name_kana,
      firstNameKana: body.first_name_kana,
      userIconUrl: expect.stringMatching(new RegExp(`/files/${icon}\\?.*method=GET`)),
    });
  });

  it('answers 404 for an unknown or malformed id and 401 without a token', async () => {
    const viewer = await createMember(t);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await t.request({
        method: 'GET',
        url: `/v1/user/${id}`,
        token: viewer.token,
      });
      expect(response.statusCode).toBe(404);
    }
    expect((await t.request({ method: 'GET', url: `/v1/user/${viewer.id}` })).statusCode).toBe(401);
  });

  it('answers each of many reads arriving together with its own member (they share one query)', async () => {
    const viewer = await createMember(t);
    const usernames = ['sato', 'suzuki', 'takahashi'].map(
      (name) => `${name}-${viewer.id.slice(0, 8)}`,
    );
    const members = await Promise.all(usernames.map((username) => createMember(t, { username })));
    const expected = new Map(members.map((member, index) => [member.id, usernames[index]]));
    const inactive = await createMember(t, { status: 'inactive' });
    const asked = [...expected.keys(), inactive.id, '00000000-0000-4000-8000-000000000001'];
    const reads = Array.from({ length: 30 }, (_, index) => asked[index % asked.length]!);
    const answers = await Promise.all(
      reads.map((id) => t.request({ method: 'GET', url: `/v1/user/${id}`, token: viewer.token })),
    );
    answers.forEach((answer, index) => {
      const username = expected.get(reads[index]!);
      expect(answer.statusCode).toBe(username ? 200 : 404);
      if (username) expect(answer.json()).toMatchObject({ id: reads[index], username });
    });
  });
});

describe('DELETE /v1/user', () => {
  it('ends the account and its sessions, keeping what others share', async () => {
    const { body, login } = await registerActive(t);
    const friend = await createMember(t);
    const me = {
      id: login.userId,
      email: body.email,
      memorialPageId: login.memorialPageId,
      token: login.accessToken,
    };
    await connectMembers(t, me, friend);
    // The friend's page, which the leaving member co-administers, stays with the friend.
    await t.ctx.database.db
      .insert(memorialPageMembers)
      .values({ memorialPageId: friend.memorialPageId, userId: me.id, role: 'admin' });

    expect((await t.request({ method: 'DELETE', url: '/v1/user' })).statusCode).toBe(401);
    const response = await t.request({
      method: 'DELETE',
      url: '/v1/user',
      token: login.accessToken,
      body: { current_password: body.password },
    });
    expect(response.statusCode).toBe(204);

    const db = t.ctx.database.db;
    const [user] = await db.select().from(users).where(eq(users.id, me.id));
    expect(user).toMatchObject({
      status: 'deleted',
      email: '',
      passwordHash: null,
      searchable: false,
    });
    expect(
      await db.select().from(memorialPages).where(eq(memorialPages.id, me.memorialPageId)),
    ).toEqual([]);
    expect(
      await db.select().from(memorialPages).where(eq(memorialPages.id, friend.memorialPageId)),
    ).toHaveLength(1);
    expect(await db.select().from(connections).where(eq(connections.userId, friend.id))).toEqual(
      [],
    );
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(401);
    const refreshed = await t.request({
      method: 'POST',
      url: '/v1/refresh',
      body: { refresh_token: login.refreshToken },
    });
    expect(refreshed.statusCode).toBe(401);
    const detail = await t.request({
      method: 'GET',
      url: `/v1/user/${me.id}`,
      token: friend.token,
    });
    expect(detail.statusCode).toBe(404);
    // The address is free again.
    await t.request({
      method: 'POST',
      url: '/v1/user',
      body: registrationBody({ email: body.email }),
    });
    expect(lastActivationLink(t).email).toBe(body.email);
  });

  it('hands a shared page left without an admin to its longest-standing member', async () => {
    const { body, login } = await registerActive(t);
    const viewer = await createMember(t);
    await t.ctx.database.db
      .insert(memorialPageMembers)
      .values({ memorialPageId: login.memorialPageId, userId: viewer.id, role: 'viewer' });
    const left = await t.request({
      method: 'DELETE',
      url: '/v1/user',
      token: login.accessToken,
      body: { current_password: body.password },
    });
    expect(left.statusCode).toBe(204);
    const members = await t.ctx.database.db
      .select()
      .from(memorialPageMembers)
      .where(eq(memorialPageMembers.memorialPageId, login.memorialPageId));
    expect(members).toEqual([expect.objectContaining({ userId: viewer.id, role: 'admin' })]);
  });
});

describe('external provider', () => {
  const identity = { provider: 'line', providerUserId: 'U1234567890' };

  it('registers only with an identity the server asserted, then signs in with it', async () => {
    const issued = await issueProviderAssertion(identity, t.config.authSecret, t.clock);
    const { assertion } = issued;
    // The browser the assertion was issued to carries its binding cookie.
    const cookie = `shinobu.provider-binding=${issued.binding}`;
    const userRequest = registrationBody({ password: undefined });
    const providerRequest = {
      provider_name: 'line',
      provider_user_id: identity.providerUserId,
      access_token: 'a token the provider gave the client',
      expired_date: null,
    };
    const forged = await t.request({
      method: 'POST',
      url: '/v1/user/create_user_with_external_provider',
      body: { user_request: userRequest, provider_request: providerRequest },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('provider_identity_unverified');

    const body = {
      user_request: userRequest,
      provider_request: { ...providerRequest, access_token: assertion },
    };
    const created = await t.request({
      method: 'POST',
      url: '/v1/user/create_user_with_external_provider',
      headers: { cookie },
      body,
    });
    expect(created.statusCode).toBe(202);
    const user = await userByEmail(userRequest.email);
    const [linked] = await t.ctx.database.db
      .select()
      .from(externalIdentities)
      .where(and(eq(externalIdentities.provider, 'line'), eq(externalIdentities.userId, user!.id)));
    expect(linked!.providerUserId).toBe(identity.providerUserId);
    const twice = await t.request({
      method: 'POST',
      url: '/v1/user/create_user_with_external_provider',
      headers: { cookie },
      body,
    });
    expect(twice.statusCode).toBe(409);

    // A later assertion for the same identity (another return from the provider) signs in
    // once the account is active.
    const later = await issueProviderAssertion(identity, t.config.authSecret, t.clock);
    const signIn = () =>
      t.request({
        method: 'GET',
        url: `/v1/tmp-return-jwt?assertion=${later.assertion}`,
        headers: { cookie: `shinobu.provider-binding=${later.binding}` },
      });
    expect((await signIn()).statusCode).toBe(401);
    const { token, email, link } = lastActivationLink(t);
    expect(new URL(link).searchParams.get('provider')).toBe('line');
    // The link completes the registration with a new sign-in of the same identity.
    const alone = await t.request({ method: 'GET', url: confirmUrl(token, email) });
    expect(alone.json()).toMatchObject({
      code: 'activation_provider_required',
      detail: expect.any(String),
    });
    const proof = await issueProviderAssertion(identity, t.config.authSecret, t.clock);
    const activated = await t.request({
      method: 'POST',
      url: confirmUrl(token, email),
      headers: { cookie: `shinobu.provider-binding=${proof.binding}` },
      body: { provider_assertion: proof.assertion },
    });
    expect(activated.statusCode, activated.body).toBe(200);
    const signedIn = await signIn();
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().userId).toBe(user!.id);
  });

  it('never turns a bare email into a token', async () => {
    const { body } = await registerActive(t);
    const response = await t.request({
      method: 'GET',
      url: `/v1/tmp-return-jwt?email=${encodeURIComponent(body.email)}`,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('external_login_failed');
  });
});

describe('sweeping expired account data', () => {
  it('removes a registration nobody activated, with its page and icon, a day after its link expired', async () => {
    const icon = await upload(t, await jpegPhoto(32, 32), { token: undefined });
    const body = registrationBody({ user_icon_url: icon });
    await t.request({ method: 'POST', url: '/v1/user', body });
    const pending = await userByEmail(body.email);
    const deps = { db: t.ctx.database.db, store: t.ctx.store };
    // Other tests' pending registrations may go too: only this one is looked at.
    t.clock.advance(47 * HOUR);
    await sweepExpiredRegistrations(deps, t.clock.now());
    expect(await userByEmail(body.email)).toBeDefined();
    t.clock.advance(HOUR + 1000);
    expect(await sweepExpiredRegistrations(deps, t.clock.now())).toBeGreaterThan(0);
    expect(await userByEmail(body.email)).toBeUndefined();
    const pages = await t.ctx.database.db
      .select()
      .from(memorialPages)
      .where(eq(memorialPages.createdBy, pending!.id));
    expect(pages).toEqual([]);
    expect(await t.ctx.store.get(icon)).toBeUndefined();
  });

  it('removes closed throttle windows, old links and old refresh tokens, and nothing current', async () => {
    const { body, login } = await registerActive(t);
    await loginFrom(t, newClient(), body.email, 'not the password');
    // Past the refresh token's 30 days and the sweep's day of grace.
    t.clock.advance(32 * 24 * HOUR);
    const current = (await loginFrom(t, newClient(), body.email, body.password)).json();
    const removed = await sweepExpiredAccountData(t.ctx.database.db, t.clock.now());
    expect(removed).toBeGreaterThan(0);

    const db = t.ctx.database.db;
    const tokens = await db
      .select({ userId: refreshTokens.userId })
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, login.userId));
    expect(tokens).toHaveLength(1);
    expect(
      await db.select().from(accountTokens).where(eq(accountTokens.userId, login.userId)),
    ).toEqual([]);
    expect(
      await db.select().from(loginThrottle).where(lt(loginThrottle.resetsAt, t.clock.now())),
    ).toEqual([]);
    const refreshed = await t.request({
      method: 'POST',
      url: '/v1/refresh',
      body: { refresh_token: current.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
  });
});
