import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../server/domain/accounts/passwords';
import { releaseDepsOf } from '../../server/areaDeps';
import { releaseDueCases } from '../../server/domain/deathDetection/release';
import { isDeathConfirmed } from '../../server/domain/endingnote/deathConfirmation';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { loginFrom, newClient } from './accountsSupport';
import {
  appCertificate,
  confirmDeath,
  integrationLinkProof,
  reportSuspicion,
  setAdministrators,
  signText,
  tokenOf,
  untrustedCa,
  verifyIdentity,
} from './deathDetectionSupport';

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse battery staple';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Family {
  member: TestMember;
  first: TestMember;
  second: TestMember;
  /** A connection of the member who is not an administrator. */
  friend: TestMember;
  stranger: TestMember;
}

/** A member with a password, two administrators (connections) and two bystanders. */
async function family(rule: 'any_one' | 'two' = 'any_one'): Promise<Family> {
  const member = await createMember(t, {
    lastName: '佐藤',
    firstName: '花子',
    passwordHash: await hashPassword(PASSWORD),
  });
  const first = await createMember(t, { lastName: '佐藤', firstName: '一郎' });
  const second = await createMember(t, { lastName: '佐藤', firstName: '次郎' });
  const friend = await createMember(t, { lastName: '鈴木', firstName: '友子' });
  const stranger = await createMember(t, { lastName: '田中', firstName: '三郎' });
  await connectMembers(t, member, first, 'family');
  await connectMembers(t, member, second, 'family');
  await connectMembers(t, member, friend, 'friend');
  await setAdministrators(t, member, [first, second], rule, null, PASSWORD);
  // Administrators confirm a death only a week after being named.
  t.clock.advance(7 * DAY_MS);
  return { member, first, second, friend, stranger };
}

async function get(member: TestMember, url: string) {
  return t.request({ method: 'GET', url, token: await tokenOf(t, member) });
}

async function post(member: TestMember, url: string, body?: unknown) {
  return t.request({ method: 'POST', url, token: await tokenOf(t, member), body });
}

async function caseOf(administrator: TestMember, member: TestMember) {
  return (await get(administrator, `/v1/fpos/death_case/${member.id}`)).json();
}

async function auditActions(reader: TestMember, member: TestMember): Promise<string[]> {
  const log = await get(reader, `/v1/fpos/death_audit_log/${member.id}`);
  expect(log.statusCode).toBe(200);
  return log.json().items.map((entry: { action: string }) => entry.action);
}

async function notificationKinds(member: TestMember): Promise<string[]> {
  const list = await get(member, '/v1/notification/user_notifications');
  return list.json().items.map((item: { kind: string }) => item.kind);
}

/** A death-triggered letter (at once after death) from `writer` to `reader`. */
async function deathLetter(writer: TestMember, reader: TestMember): Promise<string> {
  const response = await post(writer, '/v1/time_capsule_letter', {
    title: 'ありがとう',
    body: 'いままでありがとう。',
    recipients: [{ kind: 'member', user_id: reader.id }],
    admin_user_ids: [],
    delivery: { rule: 'death', delay_days: 0 },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().timeCapsuleLetterId;
}

async function letterDueAt(letterId: string): Promise<string | null> {
  const result = await t.ctx.database.db.execute(
    sql`select due_at from time_capsule_letters where id = ${letterId}`,
  );
  const row = (result as unknown as { rows: { due_at: Date | string | null }[] }).rows[0];
  return row?.due_at ? new Date(row.due_at).toISOString() : null;
}

const release = () => releaseDueCases(releaseDepsOf(t.ctx));

describe('administrators', () => {
  it('are chosen among connections, with the rule', async () => {
    const { member, first, second, stranger } = await family();
    const settings = await get(member, '/v1/fpos/death_settings');
    expect(settings.json()).toMatchObject({
      rule: 'any_one',
      checkInPeriodDays: null,
      administrators: expect.arrayContaining([
        expect.objectContaining({ userId: first.id, certificated: false }),
        expect.objectContaining({ userId: second.id }),
      ]),
    });
    const body = (ids: string[], rule = 'any_one') => ({
      rule,
      administrator_user_ids: ids,
      check_in_period_days: null,
      current_password: PASSWORD,
    });
    const notConnected = await t.request({
      method: 'PUT',
      url: '/v1/fpos/death_settings',
      token: await tokenOf(t, member),
      body: body([stranger.id]),
    });
    expect(notConnected.statusCode).toBe(422);
    expect(notConnected.json().errors).toEqual([
      { field: 'administrator_user_ids', code: 'not_connected' },
    ]);
    const twoOfOne = await t.request({
      method: 'PUT',
      url: '/v1/fpos/death_settings',
      token: await tokenOf(t, member),
      body: body([first.id], 'two'),
    });
    expect(twoOfOne.json().errors).toEqual([{ field: 'rule', code: 'needs_two_administrators' }]);
    const administered = await get(first, '/v1/fpos/administered_users');
    expect(administered.json().items).toEqual([
      expect.objectContaining({ userId: member.id, state: 'alive', lastName: '佐藤' }),
    ]);
  });
});

describe('signals of suspicion', () => {
  it('an administrator report opens a case and notifies the member and the administrators', async () => {
    const { member, first, second } = await family();
    const reported = await reportSuspicion(t, first, member);
    expect(reported.statusCode, reported.body).toBe(201);
    expect(reported.json()).toMatchObject({
      state: 'suspected',
      signals: [{ source: 'administrator' }],
      confirmationsNeeded: 1,
      canConfirm: true,
    });
    expect(await notificationKinds(member)).toContain('death_suspected');
    expect(await notificationKinds(second)).toContain('death_suspected');
    expect(t.mailbox.some((mail) => mail.to === member.email)).toBe(true);

    const self = await get(member, '/v1/fpos/death_suspected_user');
    expect(self.json()).toEqual({
      userId: member.id,
      memorialPageId: member.memorialPageId,
      lastName: '佐藤',
      firstName: '花子',
      state: 'suspected',
    });
    const administered = await get(second, '/v1/fpos/administered_user_with_suspected_death');
    expect(administered.json()).toEqual({ userId: member.id });
    expect((await get(second, '/v1/fpos/death_suspected_user')).json().userId).toBe(member.id);
    expect(await auditActions(first, member)).toEqual([
      'administrators_changed',
      'suspicion_raised',
    ]);
  });

  it('strangers and other connections learn nothing (404)', async () => {
    const { member, first, friend, stranger } = await family();
    await reportSuspicion(t, first, member);
    for (const outsider of [friend, stranger]) {
      expect((await get(outsider, `/v1/fpos/death_case/${member.id}`)).statusCode).toBe(404);
      expect((await get(outsider, `/v1/fpos/death_audit_log/${member.id}`)).statusCode).toBe(404);
      expect((await reportSuspicion(t, outsider, member)).statusCode).toBe(404);
      expect(
        (await get(outsider, '/v1/fpos/administered_user_with_suspected_death')).json(),
      ).toEqual({ userId: null });
      expect(
        (
          await post(outsider, '/v1/fpos/cancel_death_suspected_at', {
            death_suspected_user_id: member.id,
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await post(outsider, '/v1/fpos/death_confirmation/sign_request', {
            death_suspected_user_id: member.id,
            date_of_death: '2026-11-20',
            relationship: 'family',
          })
        ).statusCode,
      ).toBe(404);
    }
    expect((await caseOf(first, member)).state).toBe('suspected');
  });

  it('an external integration, once the member linked it, reports with its secret; the member gets a push', async () => {
    const secret = 'integration-secret-0123456789';
    const pushes: unknown[] = [];
    const gateway = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        pushes.push(JSON.parse(body));
        response.end();
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const { port } = gateway.address() as AddressInfo;
    const it2 = await createTestApp({
      FPOS_CLIENTS: `funeral-co:${secret}`,
      PUSH_WEBHOOK_URL: `http://127.0.0.1:${port}/push`,
    });
    try {
      const member = await createMember(it2);
      const device = await it2.request({
        method: 'POST',
        url: '/v1/device_tokens',
        token: member.token,
        body: { token: 'phone-1', platform: 'android' },
      });
      expect(device.statusCode).toBe(204);
      const administrator = await createMember(it2);
      await connectMembers(it2, member, administrator, 'family');
      const linked = await it2.request({
        method: 'POST',
        url: '/v1/fpos/verify_my_auth_access_token',
        body: {
          client_id: 'funeral-co',
          fpos_user_id: 'F-1001',
          access_token: member.token,
          ...integrationLinkProof(it2, { clientId: 'funeral-co', fposUserId: 'F-1001', secret }),
        },
      });
      expect(linked.statusCode, linked.body).toBe(200);
      expect(linked.json()).toEqual({
        userId: member.id,
        clientId: 'funeral-co',
        fposUserId: 'F-1001',
        linked: true,
      });
      const badToken = await it2.request({
        method: 'POST',
        url: '/v1/fpos/verify_my_auth_access_token',
        body: {
          client_id: 'funeral-co',
          fpos_user_id: 'F-1001',
          access_token: 'forged',
          ...integrationLinkProof(it2, { clientId: 'funeral-co', fposUserId: 'F-1001', secret }),
        },
      });
      expect(badToken.statusCode).toBe(401);
      const basic = (id: string, key: string) =>
        `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;
      const report = (authorization: string, fposUserId = 'F-1001') =>
        it2.request({
          method: 'POST',
          url: '/v1/fpos/integration/report_death_suspected',
          headers: { authorization },
          body: { fpos_user_id: fposUserId },
        });
      expect((await report(basic('funeral-co', 'wrong-secret-0123456789'))).statusCode).toBe(401);
      expect((await report(basic('funeral-co', secret), 'F-unknown')).statusCode).toBe(404);
      expect((await report(basic('funeral-co', secret))).statusCode).toBe(202);
      const self = await it2.request({
        method: 'GET',
        url: '/v1/fpos/death_suspected_user',
        token: member.token,
      });
      expect(self.json()).toMatchObject({ userId: member.id, state: 'suspected' });
      const log = await it2.request({
        method: 'GET',
        url: `/v1/fpos/death_audit_log/${member.id}`,
        token: member.token,
      });
      expect(log.json().items).toEqual([
        expect.objectContaining({
          action: 'suspicion_raised',
          source: 'integration',
          actorUserId: null,
          detail: expect.objectContaining({ clientId: 'funeral-co', fposUserId: 'F-1001' }),
        }),
      ]);
      expect(pushes).toEqual([
        {
          tokens: [{ token: 'phone-1', platform: 'android' }],
          message: expect.objectContaining({
            kind: 'death_suspected',
            data: { userId: member.id },
          }),
        },
      ]);
    } finally {
      await it2.close();
      gateway.close();
    }
  });
});

describe('the member can always cancel', () => {
  it('the cancel call clears it and tells the administrators in the app', async () => {
    const { member, first, second } = await family();
    await reportSuspicion(t, first, member);
    expect(await notificationKinds(first)).not.toContain('death_cancelled');
    const cancelled = await post(member, '/v1/fpos/cancel_death_suspected_at', {
      death_suspected_user_id: member.id,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toEqual({ state: 'alive', mailsWithdrawn: 0 });
    expect((await get(member, '/v1/fpos/death_suspected_user')).json().userId).toBeNull();
    expect((await caseOf(first, member)).state).toBe('alive');
    expect(await auditActions(member, member)).toContain('suspicion_cancelled');
    for (const administrator of [first, second]) {
      const items = (await get(administrator, '/v1/notification/user_notifications')).json().items;
      const cancelledNotice = items.find(
        (item: { kind: string }) => item.kind === 'death_cancelled',
      );
      expect(cancelledNotice).toMatchObject({
        payload: { userId: member.id, name: '佐藤 花子' },
        readAt: null,
      });
    }
    expect(await notificationKinds(member)).not.toContain('death_cancelled');
  });

  it('signing in clears it', async () => {
    const { member, first } = await family();
    await reportSuspicion(t, first, member);
    const login = await loginFrom(t, newClient(), member.email, PASSWORD);
    expect(login.statusCode, login.body).toBe(200);
    expect((await caseOf(first, member)).state).toBe('alive');
    const log = (await get(first, `/v1/fpos/death_audit_log/${member.id}`)).json().items;
    expect(log.at(-1)).toMatchObject({ action: 'suspicion_cancelled', detail: { by: 'sign_in' } });
  });
});

describe('identity verification', () => {
  it('goes INITIAL → PROGRESS → ACTIVE, and an expired certificate reads REVOKED', async () => {
    const member = await createMember(t);
    const status = async () => (await get(member, '/v1/identity_verification/status')).json();
    expect(await status()).toEqual({
      authStatus: 'INITIAL',
      certificate: null,
      revokedReason: null,
    });
    const challenge = await post(member, '/v1/identity_verification/challenge');
    expect(challenge.json()).toMatchObject({ mailAddress: member.email });
    expect((await status()).authStatus).toBe('PROGRESS');
    const keys = appCertificate(t, member.email, { validDays: 30 });
    const registered = await post(member, '/v1/identity_verification/certificate', {
      challenge_id: challenge.json().challengeId,
      certificate_pem: keys.certificatePem,
      signature: signText(keys, challenge.json().challenge),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json()).toMatchObject({ authStatus: 'ACTIVE', revokedReason: null });
    t.clock.advance(31 * DAY_MS);
    expect(await status()).toMatchObject({ authStatus: 'REVOKED', revokedReason: 'expired' });
  });

  it('a lapsed challenge falls back to INITIAL', async () => {
    const member = await createMember(t);
    await post(member, '/v1/identity_verification/challenge');
    t.clock.advance(16 * 60 * 1000);
    const status = await get(member, '/v1/identity_verification/status');
    expect(status.json().authStatus).toBe('INITIAL');
  });

  it('refuses untrusted certificates, another address, bad signatures and reused challenges', async () => {
    const member = await createMember(t);
    const attempt = async (keys: ReturnType<typeof appCertificate>, sign = true) => {
      const challenge = (await post(member, '/v1/identity_verification/challenge')).json();
      return post(member, '/v1/identity_verification/certificate', {
        challenge_id: challenge.challengeId,
        certificate_pem: keys.certificatePem,
        signature: signText(keys, sign ? challenge.challenge : 'something else'),
      });
    };
    const untrusted = await attempt(appCertificate(t, member.email, { ca: untrustedCa() }));
    expect(untrusted.json().errors).toEqual([
      { field: 'certificate_pem', code: 'certificate_not_trusted' },
    ]);
    const otherAddress = await attempt(appCertificate(t, 'someone@example.jp'));
    expect(otherAddress.json().errors).toEqual([
      { field: 'certificate_pem', code: 'certificate_email_mismatch' },
    ]);
    const badSignature = await attempt(appCertificate(t, member.email), false);
    expect(badSignature.json().errors).toEqual([{ field: 'signature', code: 'signature_invalid' }]);
    const garbage = await post(member, '/v1/identity_verification/certificate', {
      challenge_id: (await post(member, '/v1/identity_verification/challenge')).json().challengeId,
      certificate_pem: 'not a certificate',
      signature: 'AAAA',
    });
    expect(garbage.json().errors).toEqual([
      { field: 'certificate_pem', code: 'certificate_invalid' },
    ]);

    const keys = appCertificate(t, member.email);
    const challenge = (await post(member, '/v1/identity_verification/challenge')).json();
    const body = {
      challenge_id: challenge.challengeId,
      certificate_pem: keys.certificatePem,
      signature: signText(keys, challenge.challenge),
    };
    expect((await post(member, '/v1/identity_verification/certificate', body)).statusCode).toBe(
      201,
    );
    const again = await post(member, '/v1/identity_verification/certificate', body);
    expect(again.json().errors).toEqual([{ field: 'challenge_id', code: 'challenge_used' }]);
  });

  it('the badge is readable by the member and connections only', async () => {
    const { member, friend, stranger } = await family();
    await verifyIdentity(t, member);
    const badge = await get(friend, `/v1/identity_verification/certificated/${member.id}`);
    expect(badge.json()).toEqual({ userId: member.id, certificated: true });
    expect(
      (await get(stranger, `/v1/identity_verification/certificated/${member.id}`)).statusCode,
    ).toBe(404);
  });
});

describe('the certificated badge on member lists', () => {
  it('marks the members of connections, requests and dashboard news, certificated or not', async () => {
    const { member, friend, stranger } = await family();
    await verifyIdentity(t, member);
    const connected = (await get(friend, '/v1/connection/connections')).json().items;
    expect(connected).toEqual([expect.objectContaining({ userId: member.id, certificated: true })]);
    const news = (await get(friend, '/v1/dashboard')).json().connectionsNews;
    expect(news).toEqual([
      expect.objectContaining({
        kind: 'connected',
        member: expect.objectContaining({ userId: member.id, certificated: true }),
      }),
    ]);

    const sent = await post(member, '/v1/connection/requests', {
      to_user_id: stranger.id,
      relationship: 'acquaintance',
    });
    expect(sent.statusCode).toBeLessThan(300);
    const received = (await get(stranger, '/v1/connection/requests')).json().received;
    expect(received).toEqual([
      expect.objectContaining({
        member: expect.objectContaining({ userId: member.id, certificated: true }),
      }),
    ]);
    const ownSent = (await get(member, '/v1/connection/requests')).json().sent;
    expect(ownSent).toEqual([
      expect.objectContaining({
        member: expect.objectContaining({ userId: stranger.id, certificated: false }),
      }),
    ]);
  });
});

describe('confirmation by administrators', () => {
  it('is refused without an ACTIVE certificate of the administrator', async () => {
    const { member, first } = await family();
    await reportSuspicion(t, first, member);
    const keys = appCertificate(t, first.email);
    const refused = await confirmDeath(t, first, keys, member);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('certificate_required');
  });

  it('refuses a signature by another key and a changed sign content', async () => {
    const { member, first } = await family();
    await reportSuspicion(t, first, member);
    await verifyIdentity(t, first);
    const otherKeys = appCertificate(t, first.email);
    const forged = await confirmDeath(t, first, otherKeys, member);
    expect(forged.statusCode).toBe(422);
    expect(forged.json().errors).toEqual([{ field: 'signature', code: 'signature_invalid' }]);

    const token = await tokenOf(t, first);
    const facts = {
      death_suspected_user_id: member.id,
      date_of_death: '2026-11-20',
      relationship: 'family',
    };
    const request = await t.request({
      method: 'POST',
      url: '/v1/fpos/death_confirmation/sign_request',
      token,
      body: facts,
    });
    const changed = await t.request({
      method: 'POST',
      url: '/v1/fpos/death_confirmation',
      token,
      body: {
        ...facts,
        date_of_death: '2026-11-19',
        sign_tag: request.json().signTag,
        sign_content: request.json().signContent,
        signature: 'AAAA',
      },
    });
    expect(changed.json().errors).toEqual([
      { field: 'sign_content', code: 'sign_content_mismatch' },
    ]);
    const future = await post(first, '/v1/fpos/death_confirmation/sign_request', {
      ...facts,
      date_of_death: new Date(t.clock.now().getTime() + 2 * DAY_MS).toISOString().slice(0, 10),
    });
    expect(future.json().errors).toEqual([{ field: 'date_of_death', code: 'date_in_future' }]);
    expect((await caseOf(first, member)).state).toBe('suspected');
  });

  it('waits 7 days after an administrator is named, kept administrators keeping their time', async () => {
    const { member, first, second } = await family();
    const newcomer = await createMember(t, { lastName: '佐藤', firstName: '三郎' });
    await connectMembers(t, member, newcomer, 'family');
    // Naming one more keeps the week the others have already waited.
    await setAdministrators(t, member, [first, second, newcomer], 'any_one', null, PASSWORD);
    const newcomerKeys = await verifyIdentity(t, newcomer);
    const firstKeys = await verifyIdentity(t, first);
    expect((await reportSuspicion(t, second, member)).statusCode).toBe(201);

    t.clock.advance(7 * DAY_MS - 60_000);
    const early = await confirmDeath(t, newcomer, newcomerKeys, member);
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({
      code: 'administrator_too_recent',
      detail: expect.stringContaining('7 days'),
    });
    expect((await caseOf(first, member)).confirmations).toEqual([]);

    t.clock.advance(60_000);
    const onTime = await confirmDeath(t, newcomer, newcomerKeys, member);
    expect(onTime.statusCode, onTime.body).toBe(201);
    expect((await confirmDeath(t, first, firstKeys, member)).statusCode).toBe(409);
    // The grace period runs out here, so later tests count only their own releases.
    t.clock.advance(7 * DAY_MS);
    expect(await release()).toBe(1);
  });

  it('is refused while nothing is suspected', async () => {
    const { member, first } = await family();
    const keys = await verifyIdentity(t, first);
    const early = await confirmDeath(t, first, keys, member);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('not_suspected');
  });

  it('needs two administrators when the member chose two, then waits out the grace period', async () => {
    const { member, first, second, friend } = await family('two');
    const letter = await deathLetter(member, friend);
    await reportSuspicion(t, first, member);
    const firstKeys = await verifyIdentity(t, first);
    const secondKeys = await verifyIdentity(t, second);

    const one = await confirmDeath(t, first, firstKeys, member);
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json()).toMatchObject({
      state: 'suspected',
      confirmationsNeeded: 2,
      confirmations: [{ administratorUserId: first.id, relationship: 'family' }],
      canConfirm: false,
    });
    const twice = await confirmDeath(t, first, firstKeys, member);
    expect(twice.json().code).toBe('already_confirmed_by_you');
    const otherDate = await confirmDeath(t, second, secondKeys, member, {
      date_of_death: '2026-11-19',
    });
    expect(otherDate.json().errors).toEqual([
      { field: 'date_of_death', code: 'date_differs_from_first_confirmation' },
    ]);

    const two = await confirmDeath(t, second, secondKeys, member, { relationship: 'relative' });
    expect(two.statusCode, two.body).toBe(201);
    const confirmedAt = t.clock.now().getTime();
    expect(two.json()).toMatchObject({
      state: 'grace',
      dateOfDeath: '2026-11-20',
      graceEndsAt: new Date(confirmedAt + 7 * DAY_MS).toISOString(),
    });
    expect(t.mailbox.at(-1)).toMatchObject({ to: member.email });

    // Nothing is released during the grace period.
    t.clock.advance(7 * DAY_MS - 60_000);
    expect(await release()).toBe(0);
    expect(await letterDueAt(letter)).toBeNull();
    expect(await isDeathConfirmed(t.ctx.database.db, member.id)).toBe(false);
    expect(await notificationKinds(friend)).not.toContain('death_confirmed');

    // After it, exactly once, even with passes racing each other.
    t.clock.advance(60_000);
    const passes = await Promise.all([release(), release(), release()]);
    expect(passes.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await release()).toBe(0);
    expect(await caseOf(first, member)).toMatchObject({ state: 'released' });
    expect(await letterDueAt(letter)).toBe(t.clock.now().toISOString());
    expect(await isDeathConfirmed(t.ctx.database.db, member.id)).toBe(true);
    expect((await notificationKinds(friend)).filter((k) => k === 'death_confirmed')).toHaveLength(
      1,
    );
    expect(
      (await auditActions(second, member)).filter((action) => action === 'released'),
    ).toHaveLength(1);
    const page = await t.ctx.database.db.execute(
      sql`select death_date, mourning_since from memorial_pages where id = ${member.memorialPageId}`,
    );
    const pageRow = (page as unknown as { rows: { death_date: string; mourning_since: unknown }[] })
      .rows[0];
    expect(String(pageRow?.death_date)).toContain('2026-11-20');
    expect(pageRow?.mourning_since).not.toBeNull();
    const pageRead = await get(first, `/v1/memorial_page/${member.memorialPageId}`);
    expect(pageRead.statusCode).toBe(200);
    expect(pageRead.json().mourningSince).toEqual(expect.any(String));

    // Read-only memorial content: the account is kept, and nobody signs into it.
    const login = await loginFrom(t, newClient(), member.email, PASSWORD);
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe('account_memorialized');
    expect((await reportSuspicion(t, first, member)).statusCode).toBe(409);
  });

  it('the member signing in during the grace period undoes everything', async () => {
    const { member, first, friend } = await family();
    const letter = await deathLetter(member, friend);
    await reportSuspicion(t, first, member);
    const keys = await verifyIdentity(t, first);
    expect((await confirmDeath(t, first, keys, member)).json().state).toBe('grace');
    t.clock.advance(3 * DAY_MS);
    const login = await loginFrom(t, newClient(), member.email, PASSWORD);
    expect(login.statusCode, login.body).toBe(200);
    t.clock.advance(30 * DAY_MS);
    expect(await release()).toBe(0);
    expect(await letterDueAt(letter)).toBeNull();
    expect(await isDeathConfirmed(t.ctx.database.db, member.id)).toBe(false);
    expect((await caseOf(first, member)).state).toBe('alive');
    expect(await auditActions(first, member)).toEqual([
      'administrators_changed',
      'suspicion_raised',
      'confirmation_recorded',
      'grace_started',
      'suspicion_cancelled',
    ]);
  });
});

describe('device tokens', () => {
  it('registers several devices per member and deletes one on logout', async () => {
    const member = await createMember(t);
    for (const token of ['device-a', 'device-b']) {
      const registered = await post(member, '/v1/device_tokens', { token, platform: 'ios' });
      expect(registered.statusCode).toBe(204);
    }
    const removed = await t.request({
      method: 'DELETE',
      url: '/v1/device_tokens',
      token: await tokenOf(t, member),
      body: { token: 'device-a' },
    });
    expect(removed.statusCode).toBe(204);
    const rows = await t.ctx.database.db.execute(
      sql`select token from device_tokens where user_id = ${member.id} order by token`,
    );
    expect((rows as unknown as { rows: { token: string }[] }).rows).toEqual([
      { token: 'device-b' },
    ]);
    const invalid = await post(member, '/v1/device_tokens', { token: 'x', platform: 'web' });
    expect(invalid.statusCode).toBe(422);
  });
});

describe('the certificated badge where members are listed', () => {
  it('search results, connections and memorial page admins carry each avatar flag', async () => {
    const reading = { lastNameKana: 'ばっじ', nameReading: 'ばっじ証明' };
    const verified = await createMember(t, { lastName: '証明', firstName: '済', ...reading });
    const unverified = await createMember(t, { lastName: '証明', firstName: '未', ...reading });
    const viewer = await createMember(t);
    await connectMembers(t, viewer, verified);
    await connectMembers(t, viewer, unverified);
    await verifyIdentity(t, verified);
    // Another page admin, so the admin list shows both flags.
    await t.ctx.database.db.execute(
      sql`insert into memorial_page_members (memorial_page_id, user_id, role)
          values (${verified.memorialPageId}, ${unverified.id}, 'admin')`,
    );
    const flags = (items: { userId: string; certificated?: boolean }[]) =>
      Object.fromEntries(
        items
          .filter((item) => [verified.id, unverified.id].includes(item.userId))
          .map((item) => [item.userId, item.certificated]),
      );
    const expected = { [verified.id]: true, [unverified.id]: false };

    const search = await get(viewer, `/v1/user_search?q=${encodeURIComponent('ばっじ')}`);
    expect(search.statusCode, search.body).toBe(200);
    expect(flags(search.json().items)).toEqual(expected);
    expect(flags((await get(viewer, '/v1/connection/connections')).json().items)).toEqual(expected);
    const admins = await get(
      viewer,
      `/v1/memorial_page/get_memorial_page_admin/${verified.memorialPageId}`,
    );
    expect(flags(admins.json())).toEqual(expected);

    // An expired certificate no longer earns the badge (last in the file: the clock jumps a year).
    t.clock.advance(366 * DAY_MS);
    expect(flags((await get(viewer, '/v1/connection/connections')).json().items)).toEqual({
      [verified.id]: false,
      [unverified.id]: false,
    });
  });
});
