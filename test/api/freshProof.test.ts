import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeReports, users } from '../../server/db/schema';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { issueRefreshToken } from '../../server/domain/accounts/refreshTokens';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { loginFrom, newClient, registerActive } from './accountsSupport';

/**
 * Sensitive changes need a fresh proof (the current password, or for an account without one
 * a sign-in within 5 minutes) and are told to the member by mail with a link to report them.
 */
const MINUTE = 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Change {
  name: string;
  method: 'PUT' | 'POST' | 'DELETE';
  /** What the member changes, and the body (without the proof) that changes it. */
  prepare(member: TestMember): Promise<{ url: string; body: Record<string, unknown> }>;
  succeeds: number;
}

const connection = async (member: TestMember) => {
  const other = await createMember(t);
  await connectMembers(t, member, other, 'family');
  return other;
};

const CHANGES: Change[] = [
  {
    name: 'death administrators and their rule',
    method: 'PUT',
    prepare: async (member) => ({
      url: '/v1/fpos/death_settings',
      body: {
        rule: 'any_one',
        administrator_user_ids: [(await connection(member)).id],
        check_in_period_days: null,
      },
    }),
    succeeds: 200,
  },
  {
    name: 'ending-note readers',
    method: 'PUT',
    prepare: async (member) => ({
      url: `/v1/endingnote/${member.id}/readers`,
      body: { user_ids: [(await connection(member)).id] },
    }),
    succeeds: 200,
  },
  {
    name: 'ending-note visibility',
    method: 'PUT',
    prepare: async (member) => ({
      url: `/v1/endingnote/${member.id}/sections/self/visibility`,
      body: { visibility: 'readers_now' },
    }),
    succeeds: 200,
  },
  {
    name: 'the e-mail address (the request)',
    method: 'POST',
    prepare: async () => ({
      url: '/v1/mypage/email',
      body: { new_email: `moved-${Math.random().toString(36).slice(2)}@example.jp` },
    }),
    succeeds: 202,
  },
  {
    name: 'an archive of all the member’s data (the request)',
    method: 'POST',
    prepare: async () => ({ url: '/v1/data_exports', body: {} }),
    succeeds: 202,
  },
  {
    name: 'the account (deletion)',
    method: 'DELETE',
    prepare: async () => ({ url: '/v1/user', body: {} }),
    succeeds: 204,
  },
];

/** A member with a password, signed in through the API. */
async function memberWithPassword() {
  const { body, login } = await registerActive(t);
  const member: TestMember = {
    id: login.userId,
    email: body.email,
    memorialPageId: login.memorialPageId,
    token: login.accessToken,
  };
  return { member, password: body.password, login };
}

const send = (change: Change, token: string, url: string, body: object, client = newClient()) =>
  t.app.inject({
    method: change.method,
    url,
    remoteAddress: client,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });

const mailsTo = (email: string) => t.mailbox.filter((mail) => mail.to === email);
/** Sends what the outbox holds, as its job would. */
const settle = () => t.sendMail();

describe('a member with a password', () => {
  for (const change of CHANGES) {
    it(`changes ${change.name} only with the current password, then is told by mail`, async () => {
      const { member, password } = await memberWithPassword();
      const { url, body } = await change.prepare(member);
      const mailsBefore = mailsTo(member.email).length;

      const bare = await send(change, member.token, url, body);
      expect(bare.statusCode).toBe(403);
      expect(bare.json()).toEqual({
        code: 'reauthentication_required',
        detail: expect.stringContaining('current password'),
      });

      const wrong = await send(change, member.token, url, {
        ...body,
        current_password: 'not the password at all',
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors).toEqual([
        { field: 'current_password', code: 'current_password_incorrect' },
      ]);
      await settle();
      expect(mailsTo(member.email)).toHaveLength(mailsBefore);

      const right = await send(change, member.token, url, { ...body, current_password: password });
      expect(right.statusCode, right.body).toBe(change.succeeds);
      await settle();
      if (change.name.startsWith('the e-mail')) return; // told once the new address confirms
      const notice = mailsTo(member.email).at(-1)!;
      expect(mailsTo(member.email)).toHaveLength(mailsBefore + 1);
      expect(notice.subject).toContain('変更されました');
      expect(notice.link).toMatch(/^http:\/\/localhost:3000\/mypage\/change-report\?token=/);
      expect(notice.text).toContain(notice.link);
    });
  }

  it('changes the password only with the current one, then is told by mail', async () => {
    const { member, password } = await memberWithPassword();
    const post = (body: object) =>
      send({ method: 'POST' } as Change, member.token, '/v1/mypage/password', body);
    const bare = await post({ new_password: 'an entirely new passphrase' });
    expect(bare.statusCode).toBe(422);
    expect(bare.json().errors).toEqual([{ field: 'current_password', code: 'required' }]);
    const wrong = await post({
      current_password: 'not the password at all',
      new_password: 'an entirely new passphrase',
    });
    expect(wrong.statusCode).toBe(422);
    const right = await post({
      current_password: password,
      new_password: 'an entirely new passphrase',
    });
    expect(right.statusCode).toBe(200);
    await settle();
    const notice = mailsTo(member.email).at(-1)!;
    expect(notice.text).toContain('パスワード');
    expect(notice.link).toContain('/mypage/change-report?token=');
  });

  it('changes the check-in period alone without a proof and without a mail', async () => {
    const { member } = await memberWithPassword();
    const mailsBefore = t.mailbox.length;
    const response = await send(
      { method: 'PUT' } as Change,
      member.token,
      '/v1/fpos/death_settings',
      {
        rule: 'any_one',
        administrator_user_ids: [],
        check_in_period_days: 60,
      },
    );
    expect(response.statusCode).toBe(200);
    await settle();
    expect(t.mailbox).toHaveLength(mailsBefore);
  });

  it('is not asked for a proof by someone else’s note: that stays 404', async () => {
    const { member } = await memberWithPassword();
    const other = await createMember(t);
    const response = await send(
      { method: 'PUT' } as Change,
      member.token,
      `/v1/endingnote/${other.id}/readers`,
      {
        user_ids: [],
      },
    );
    expect(response.statusCode).toBe(404);
  });
});

describe('a member without a password (social login)', () => {
  /** A token descending from a sign-in at `signedInAt`, as /v1/refresh mints it. */
  async function refreshedToken(member: TestMember, signedInAt: Date) {
    const refreshToken = await issueRefreshToken(t.ctx.database.db, member.id, {
      now: () => signedInAt,
    });
    const answer = await t.request({
      method: 'POST',
      url: '/v1/refresh',
      body: { refresh_token: refreshToken },
    });
    expect(answer.statusCode).toBe(200);
    return answer.json().accessToken as string;
  }

  for (const change of CHANGES) {
    it(`changes ${change.name} within 5 minutes of signing in, not after`, async () => {
      const member = await createMember(t);
      const { url, body } = await change.prepare(member);
      const signedInAt = t.clock.now();

      t.clock.advance(5 * MINUTE + 1000);
      const stale = await send(change, await refreshedToken(member, signedInAt), url, body);
      expect(stale.statusCode).toBe(403);
      expect(stale.json()).toEqual({
        code: 'recent_sign_in_required',
        detail: expect.stringContaining('sign in again'),
      });
      // A password it does not have proves nothing either.
      const guessed = await send(change, await refreshedToken(member, signedInAt), url, {
        ...body,
        current_password: 'anything at all',
      });
      expect(guessed.statusCode).toBe(403);

      const fresh = await send(
        change,
        await issueAccessToken(
          member.id,
          t.config.authSecret,
          t.clock,
          new Date(t.clock.now().getTime() - 4 * MINUTE),
        ),
        url,
        body,
      );
      expect(fresh.statusCode, fresh.body).toBe(change.succeeds);
      await settle();
      if (!change.name.startsWith('the e-mail')) {
        expect(mailsTo(member.email).at(-1)?.link).toContain('/mypage/change-report?token=');
      }
    });
  }
});

describe('the report link of a change notice', () => {
  it('ends every session of the member and records the report', async () => {
    const { member, password, login } = await memberWithPassword();
    const other = await loginFrom(t, newClient(), member.email, password);
    const changed = await send(
      { method: 'PUT' } as Change,
      member.token,
      `/v1/endingnote/${member.id}/sections/assets/visibility`,
      {
        visibility: 'readers_now',
        current_password: password,
      },
    );
    expect(changed.statusCode).toBe(200);
    await settle();
    const token = new URL(mailsTo(member.email).at(-1)!.link!).searchParams.get('token')!;

    const forged = await t.request({
      method: 'POST',
      url: '/v1/account/change_report',
      body: { token: `${token.slice(0, -4)}AAAA` },
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('change_report_invalid');

    const reported = await t.request({
      method: 'POST',
      url: '/v1/account/change_report',
      body: { token },
    });
    expect(reported.statusCode).toBe(200);
    expect(reported.json()).toEqual({ change: 'note_visibility', emailRestored: false });
    for (const refreshToken of [login.refreshToken, other.json().refreshToken]) {
      const refresh = await t.request({
        method: 'POST',
        url: '/v1/refresh',
        body: { refresh_token: refreshToken },
      });
      expect(refresh.statusCode).toBe(401);
    }
    const rows = await t.ctx.database.db
      .select()
      .from(changeReports)
      .where(eq(changeReports.userId, member.id));
    expect(rows).toEqual([expect.objectContaining({ change: 'note_visibility' })]);
  });

  it('puts an e-mail address back after an unwanted change', async () => {
    const { member, password } = await memberWithPassword();
    const target = `taken-over-${Math.random().toString(36).slice(2)}@example.jp`;
    const asked = await send({ method: 'POST' } as Change, member.token, '/v1/mypage/email', {
      new_email: target,
      current_password: password,
    });
    expect(asked.statusCode).toBe(202);
    await settle();
    const confirmToken = new URL(mailsTo(target).at(-1)!.link!).searchParams.get('token');
    const confirmed = await t.request({
      method: 'POST',
      url: '/v1/mypage/email/confirm',
      body: { token: confirmToken },
    });
    expect(confirmed.statusCode).toBe(200);
    await settle();
    const notice = mailsTo(member.email).at(-1)!;
    expect(notice.text).toContain(target);
    const token = new URL(notice.link!).searchParams.get('token')!;

    const reported = await t.request({
      method: 'POST',
      url: '/v1/account/change_report',
      body: { token },
    });
    expect(reported.json()).toEqual({ change: 'email', emailRestored: true });
    const [user] = await t.ctx.database.db.select().from(users).where(eq(users.id, member.id));
    expect(user!.email).toBe(member.email);
    expect((await loginFrom(t, newClient(), member.email, password)).statusCode).toBe(200);
    expect((await loginFrom(t, newClient(), target, password)).statusCode).toBe(401);
  });

  it('stops working after 30 days', async () => {
    const { member, password } = await memberWithPassword();
    await send(
      { method: 'PUT' } as Change,
      member.token,
      `/v1/endingnote/${member.id}/sections/self/visibility`,
      {
        visibility: 'readers_now',
        current_password: password,
      },
    );
    await settle();
    const token = new URL(mailsTo(member.email).at(-1)!.link!).searchParams.get('token')!;
    t.clock.advance(31 * 24 * 60 * MINUTE);
    const late = await t.request({
      method: 'POST',
      url: '/v1/account/change_report',
      body: { token },
    });
    expect(late.statusCode).toBe(400);
  });
});
