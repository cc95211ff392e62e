/**
 * Every mail is written in the transaction of the change that causes it: when the database
 * refuses the mail, the change is not made either, and when the change fails at its commit, no
 * mail is left in the outbox. The refusals are real database triggers, the way a full table or
 * a broken constraint would fail in production.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accountTokens,
  deathCheckIns,
  deathSettings,
  mailOutbox,
  timeCapsuleLetters,
  users,
} from '../../server/db/schema';
import { deathDepsOf, timecapsuleDepsOf } from '../../server/areaDeps';
import { runSuspicionSweep } from '../../server/domain/deathDetection/sweep';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { registerActive, registrationBody } from './accountsSupport';
import { setAdministrators, tokenOf } from './deathDetectionSupport';
import { seedLetters } from './letterDeliverySeed';

const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await db().execute(
    sql.raw(`create function test_refuse_write() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test'; end $$`),
  );
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await db().execute(sql.raw('drop trigger if exists test_refuse_mail on mail_outbox'));
  for (const table of COMMIT_REFUSING_TABLES) {
    await db().execute(sql.raw(`drop trigger if exists test_refuse_commit on ${table}`));
  }
});

const db = () => t.ctx.database.db;
const COMMIT_REFUSING_TABLES = [
  'users',
  'account_tokens',
  'death_settings',
  'death_check_ins',
  'time_capsule_letters',
];

/** The database refuses to write mails of this kind, as a failing insert would. */
async function refuseMails(kind: string): Promise<void> {
  await db().execute(
    sql.raw(`create trigger test_refuse_mail before insert on mail_outbox for each row
      when (new.kind = '${kind}') execute function test_refuse_write()`),
  );
}

/**
 * Writes to `table` fail at COMMIT, after everything else of the transaction, the mails
 * included, was written (a deferred constraint trigger).
 */
async function refuseAtCommit(table: string, event: 'insert' | 'update'): Promise<void> {
  await db().execute(
    sql.raw(`create constraint trigger test_refuse_commit after ${event} on ${table}
      deferrable initially deferred for each row execute function test_refuse_write()`),
  );
}

const mailsTo = (email: string) =>
  db().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email));
const mailsOfKind = (userId: string, kind: string) =>
  db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.kind, kind)));

describe('a mail and the change that causes it are written together', () => {
  it('registration: no account without its activation mail, no mail without the account', async () => {
    const body = registrationBody();
    await refuseMails('activation');
    const refused = await t.request({ method: 'POST', url: '/v1/user', body });
    expect(refused.statusCode).toBe(500);
    expect(await db().select().from(users).where(eq(users.email, body.email))).toEqual([]);

    await db().execute(sql.raw('drop trigger test_refuse_mail on mail_outbox'));
    await refuseAtCommit('users', 'insert');
    const failedCommit = await t.request({ method: 'POST', url: '/v1/user', body });
    expect(failedCommit.statusCode).toBe(500);
    expect(await mailsTo(body.email)).toEqual([]);

    // Nothing half-written holds the address: the same registration goes through once the
    // database takes it, and its mail leaves.
    await db().execute(sql.raw('drop trigger test_refuse_commit on users'));
    const accepted = await t.request({ method: 'POST', url: '/v1/user', body });
    expect(accepted.statusCode).toBe(202);
    expect(t.mailbox.filter((mail) => mail.to === body.email)).toHaveLength(1);
  });

  it('password reset: no reset link is stored without its mail', async () => {
    const { body } = await registerActive(t);
    const [user] = await db().select().from(users).where(eq(users.email, body.email));
    const resetTokens = () =>
      db()
        .select()
        .from(accountTokens)
        .where(
          and(eq(accountTokens.userId, user!.id), eq(accountTokens.purpose, 'password_reset')),
        );
    await refuseMails('password_reset');
    const refused = await t.request({
      method: 'POST',
      url: '/v1/password_reset',
      body: { email: body.email },
    });
    expect(refused.statusCode).toBe(500);
    expect(await resetTokens()).toEqual([]);
    expect(await mailsOfKind(user!.id, 'password_reset')).toEqual([]);

    await db().execute(sql.raw('drop trigger test_refuse_mail on mail_outbox'));
    await refuseAtCommit('account_tokens', 'insert');
    const failedCommit = await t.request({
      method: 'POST',
      url: '/v1/password_reset',
      body: { email: body.email },
    });
    expect(failedCommit.statusCode).toBe(500);
    expect(await mailsOfKind(user!.id, 'password_reset')).toEqual([]);
  });

  const nameAdministrator = async (member: TestMember, administrator: TestMember) =>
    t.request({
      method: 'PUT',
      url: '/v1/fpos/death_settings',
      token: await tokenOf(t, member),
      body: {
        rule: 'any_one',
        administrator_user_ids: [administrator.id],
        check_in_period_days: null,
      },
    });

  it('death settings: administrators are not named without the mail telling them', async () => {
    const member = await createMember(t);
    const administrator = await createMember(t);
    await connectMembers(t, member, administrator, 'family');
    await refuseMails('administrator_named');
    const refused = await nameAdministrator(member, administrator);
    expect(refused.statusCode).toBe(500);
    const settings = await t.request({
      method: 'GET',
      url: '/v1/fpos/death_settings',
      token: await tokenOf(t, member),
    });
    expect(settings.statusCode).toBe(200);
    expect(settings.json().administrators ?? []).toEqual([]);
    expect(await mailsOfKind(administrator.id, 'administrator_named')).toEqual([]);

    await db().execute(sql.raw('drop trigger test_refuse_mail on mail_outbox'));
    await refuseAtCommit('death_settings', 'insert');
    const failedCommit = await nameAdministrator(member, administrator);
    expect(failedCommit.statusCode).toBe(500);
    expect(await mailsOfKind(administrator.id, 'administrator_named')).toEqual([]);
  });

  describe('the check-in sweep', () => {
    async function memberDueACheckIn(): Promise<TestMember> {
      const member = await createMember(t, { lastActiveAt: t.clock.now() });
      const administrator = await createMember(t);
      await connectMembers(t, member, administrator, 'family');
      await setAdministrators(t, member, [administrator], 'any_one', 30);
      t.clock.advance(31 * DAY_MS);
      return member;
    }
    const checkInsOf = (member: TestMember) =>
      db().select().from(deathCheckIns).where(eq(deathCheckIns.userId, member.id));

    it('starts no check-in period without its mail', async () => {
      const member = await memberDueACheckIn();
      await refuseMails('check_in');
      await expect(runSuspicionSweep(deathDepsOf(t.ctx))).rejects.toThrow();
      expect(await checkInsOf(member)).toEqual([]);

      await db().execute(sql.raw('drop trigger test_refuse_mail on mail_outbox'));
      expect((await runSuspicionSweep(deathDepsOf(t.ctx))).checkInsSent).toBeGreaterThanOrEqual(1);
      const [checkIn] = await checkInsOf(member);
      const [mail] = await mailsOfKind(member.id, 'check_in');
      expect(checkIn!.mailId).toBe(mail!.id);
    });

    it('leaves no check-in mail when the check-in is not recorded', async () => {
      const member = await memberDueACheckIn();
      await refuseAtCommit('death_check_ins', 'insert');
      await expect(runSuspicionSweep(deathDepsOf(t.ctx))).rejects.toThrow();
      expect(await mailsOfKind(member.id, 'check_in')).toEqual([]);
      // The member's settings still ask for a check-in: the next sweep writes both.
      const [settings] = await db()
        .select()
        .from(deathSettings)
        .where(eq(deathSettings.userId, member.id));
      expect(settings!.checkInPeriodDays).toBe(30);
    });
  });

  describe('letter delivery', () => {
    async function dueLetter(): Promise<{ readerId: string; letterId: string }> {
      const writer = await createMember(t);
      const reader = await createMember(t);
      const dueAt = new Date(t.clock.now().getTime() - 60_000);
      await seedLetters(db(), { writerId: writer.id, readerId: reader.id, count: 1, dueAt });
      const [letter] = await db()
        .select({ id: timeCapsuleLetters.id })
        .from(timeCapsuleLetters)
        .where(eq(timeCapsuleLetters.senderUserId, writer.id));
      return { readerId: reader.id, letterId: letter!.id };
    }
    const deliveredAt = async (letterId: string) => {
      const [letter] = await db()
        .select({ deliveredAt: timeCapsuleLetters.deliveredAt })
        .from(timeCapsuleLetters)
        .where(eq(timeCapsuleLetters.id, letterId));
      return letter!.deliveredAt;
    };
    const deliver = async () => deliverAllDueLetters(timecapsuleDepsOf(t.ctx));

    it('a letter whose mail cannot be written stays due', async () => {
      const { readerId, letterId } = await dueLetter();
      await refuseMails('letter');
      await expect(deliver()).rejects.toThrow();
      expect(await deliveredAt(letterId)).toBeNull();

      await db().execute(sql.raw('drop trigger test_refuse_mail on mail_outbox'));
      expect(await deliver()).toBeGreaterThanOrEqual(1);
      expect(await deliveredAt(letterId)).not.toBeNull();
      expect(await mailsOfKind(readerId, 'letter')).toHaveLength(1);
    });

    it('a letter not marked delivered leaves no mail', async () => {
      const { readerId, letterId } = await dueLetter();
      await refuseAtCommit('time_capsule_letters', 'update');
      await expect(deliver()).rejects.toThrow();
      expect(await deliveredAt(letterId)).toBeNull();
      expect(await mailsOfKind(readerId, 'letter')).toEqual([]);
    });
  });
});
