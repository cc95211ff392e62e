import type { AxiosError } from 'axios';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../../server/db/schema';
import { revokeAllOfUser } from '../../server/domain/accounts/refreshTokens';
import { createSessionApi } from '../../src/services/api/session';
import { isHandledBySession, isQuietHttpError } from '../../src/services/http/httpClients';
import { createTestApp, type TestApp } from '../support/testApp';
import { lastActivationLink, registrationBody } from './accountsSupport';
import { cookieKeepingFetch, sessionIn, startClient, type TestClient } from './httpClientHarness';

/**
 * The HTTP client driven in Node against the real server on a real port:
 * casing, bearer token, one shared refresh and one retry, no refresh for the token calls,
 * sign-out and /login after a refused refresh.
 */
const PAST_ACCESS_TOKEN_LIFETIME_MS = 16 * 60 * 1000;

let t: TestApp;
let origin: string;
beforeAll(async () => {
  t = await createTestApp();
  // Fastify answers the address it listens on: http://127.0.0.1:<port>.
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

interface Member {
  userId: string;
  email: string;
  password: string;
}

/** Registers and activates a member through the client itself (camelCase in, snake_case out). */
async function registeredMember(client: TestClient): Promise<Member> {
  const body = registrationBody();
  await client.api.register({
    variant: 'standard',
    user: {
      username: body.username,
      email: body.email,
      password: body.password,
      firstName: body.first_name,
      lastName: body.last_name,
      firstNameKana: body.first_name_kana,
      lastNameKana: body.last_name_kana,
      address: body.address,
      birthdate: body.birthdate,
      sexCode: body.sex_code,
    },
  });
  await t.sendMail();
  const link = lastActivationLink(t);
  // Activated as the browser does, through the session layer, in a tab of its own.
  const activating = createSessionApi({ origin, fetchImpl: cookieKeepingFetch() });
  await activating.signInWithActivation(
    { token: link.token, email: link.email, password: body.password },
    '/',
  );
  const activated = await activating.fetchSession();
  if (!activated) throw new Error('the activation did not sign in');
  return { userId: activated.user.id, email: body.email, password: body.password };
}

/** A member signed in through the session layer, with the client's session loaded. */
async function signedInClient(): Promise<{ client: TestClient; member: Member }> {
  const client = startClient(origin);
  const member = await registeredMember(client);
  const result = await client.session.signInWithCredentials(
    { username: member.email, password: member.password },
    '/',
  );
  expect(result).toMatchObject({ ok: true, error: null });
  client.actor.start();
  await sessionIn(client, { authenticated: 'idle' });
  return { client, member };
}

async function refreshTokenCount(userId: string): Promise<number> {
  const rows = await t.ctx.database.db
    .select({ hash: refreshTokens.tokenHash })
    .from(refreshTokens)
    .where(eq(refreshTokens.userId, userId));
  return rows.length;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('the call should have failed'),
    (error: unknown) => error,
  );
}

describe('HTTP client against the real server', () => {
  it('sends snake_case, reads camelCase and carries the bearer token', async () => {
    const { client, member } = await signedInClient();
    const detail = await client.api.userDetail(member.userId);
    expect(detail).toMatchObject({
      id: member.userId,
      lastNameKana: expect.any(String),
      firstNameKana: expect.any(String),
    });
    const invalid = await rejection(
      client.http.post('/v1/user', { ...registrationBody(), firstNameKana: 'カタカナ' }),
    );
    expect((invalid as AxiosError).response?.status).toBe(422);
    expect((invalid as AxiosError).response?.data).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'first_name_kana', code: 'kana_hiragana_only' }],
    });
  });

  it('refreshes once on a 401 and retries the call with the new token', async () => {
    const { client, member } = await signedInClient();
    const before = await refreshTokenCount(member.userId);
    const oldToken = client.actor.getSnapshot().context.session!.accessToken;
    t.clock.advance(PAST_ACCESS_TOKEN_LIFETIME_MS);

    const detail = await client.api.userDetail(member.userId);

    expect(detail.id).toBe(member.userId);
    expect(await refreshTokenCount(member.userId)).toBe(before + 1);
    const session = client.actor.getSnapshot().context.session!;
    expect(session.accessToken).not.toBe(oldToken);
    // The session cookie holds the rotated pair, so a reload keeps it; page script never
    // held the refresh token at all.
    expect(await client.session.fetchSession()).toMatchObject({
      user: session.user,
      accessToken: session.accessToken,
    });
    expect(JSON.stringify(session)).not.toMatch(/refresh/i);
    expect(client.goToLogin).not.toHaveBeenCalled();
  });

  it('lets concurrent 401s share one refresh, and retries each call once', async () => {
    const { client, member } = await signedInClient();
    const before = await refreshTokenCount(member.userId);
    t.clock.advance(PAST_ACCESS_TOKEN_LIFETIME_MS);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => client.api.userDetail(member.userId)),
    );

    expect(answers.map((answer) => answer.id)).toEqual(Array(5).fill(member.userId));
    expect(await refreshTokenCount(member.userId)).toBe(before + 1);
    expect(client.actor.getSnapshot().matches('authenticated')).toBe(true);
  });

  it('never refreshes for the login or the refresh call', async () => {
    const { client, member } = await signedInClient();
    const before = await refreshTokenCount(member.userId);

    const wrongPassword = await rejection(
      client.api.login({ username: member.email, password: 'not the password' }),
    );
    expect((wrongPassword as AxiosError).response?.status).toBe(401);
    expect((wrongPassword as AxiosError).response?.data).toMatchObject({
      code: 'invalid_credentials',
    });
    const badRefresh = await rejection(
      client.http.post('/v1/refresh', { refreshToken: 'not-a-token' }),
    );
    expect((badRefresh as AxiosError).response?.data).toMatchObject({
      code: 'invalid_refresh_token',
    });

    expect(await refreshTokenCount(member.userId)).toBe(before);
    expect(client.actor.getSnapshot().matches('authenticated')).toBe(true);
    expect(client.goToLogin).not.toHaveBeenCalled();
    // The form-encoded login still works through the same client.
    const login = await client.api.login({ username: member.email, password: member.password });
    expect(login).toMatchObject({ userId: member.userId, accessToken: expect.any(String) });
  });

  it('signs out and sends to /login when the refresh token is refused', async () => {
    const { client, member } = await signedInClient();
    // Every session of the member is ended elsewhere (a password reset on another device).
    await revokeAllOfUser(t.ctx.database.db, member.userId, t.clock);
    t.clock.advance(PAST_ACCESS_TOKEN_LIFETIME_MS);

    const first = client.api.userDetail(member.userId);
    await sessionIn(client, { authenticated: 'refreshing' });
    // Made while the refresh runs: held back, then cancelled quietly.
    const queued = client.api.userDetail(member.userId);

    const failure = await rejection(first);
    expect((failure as AxiosError).response?.status).toBe(401);
    const cancelled = await rejection(queued);
    expect(isQuietHttpError(cancelled)).toBe(true);
    expect(isQuietHttpError(failure)).toBe(false);
    expect(isHandledBySession(failure)).toBe(true);

    await sessionIn(client, { unauthenticated: 'idle' });
    expect(client.actor.getSnapshot().context.session).toBeNull();
    expect(client.goToLogin).toHaveBeenCalledTimes(1);
    expect(await client.session.fetchSession()).toBeNull();
  });

  it('deletes the account with the bearer token; the account then signs in no more', async () => {
    const { client, member } = await signedInClient();
    await client.api.deleteAccount(member.password);
    const result = await client.session.signInWithCredentials(
      { username: member.email, password: member.password },
      '/',
    );
    expect(result).toMatchObject({ ok: false, error: 'invalid_credentials' });
  });
});
