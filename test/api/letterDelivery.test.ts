import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  letterDeliveries,
  mailOutbox,
  notifications,
  timeCapsuleLetters,
} from '../../server/db/schema';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { releaseLettersOnDeath } from '../../server/domain/timecapsule/death';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { LATE_AFTER_MINUTES } from '../../server/domain/timecapsule/rules';
import { startLetterDelivery } from '../../server/jobs/letterDelivery';
import { startMailOutbox } from '../../server/jobs/mailOutbox';
import { outboxDepsOf, timecapsuleDepsOf } from '../../server/areaDeps';
import type { Mailer } from '../../server/mail/mailer';
import {
  MAIL_RETRY_WINDOW_MS,
  messageIdOf,
  retryDelayMs,
  sendPendingMails,
} from '../../server/mail/outbox';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

const BASE = '/v1/time_capsule_letter';
const MINUTE = 60_000;

let t: TestApp;
let writer: TestMember;
let reader: TestMember;
const db = () => t.ctx.database.db;
/** One pass of the outbox sender through `mailer` at the clock's time. */
const sendMails = (mailer: Mailer = t.ctx.mailer, clock: { now(): Date } = t.clock) =>
  sendPendingMails({ ...outboxDepsOf(t.ctx), mailer, clock });

beforeAll(async () => {
  t = await createTestApp();
  writer = await createMember(t, { lastName: '佐藤', firstName: '花子' });
  reader = await createMember(t, { lastName: '佐藤', firstName: '一郎' });
  await connectMembers(t, writer, reader, 'family');
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  // Each test starts from its own time and an empty mailbox; earlier letters are delivered.
  t.clock.set('2026-11-22T00:00:00Z');
  await deliverAllDueLetters({
    ...timecapsuleDepsOf(t.ctx),
    clock: { now: () => new Date('2200-01-01T00:00:00Z') },
  });
  await sendMails(t.ctx.mailer, { now: () => new Date('2200-01-01T00:00:00Z') });
  t.mailbox.length = 0;
});

async function signIn(member: TestMember): Promise<string> {
  member.token = await issueAccessToken(member.id, t.config.authSecret, t.clock);
  return member.token;
}

async function write(delivery: unknown, recipients?: unknown[]): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: BASE,
    token: await signIn(writer),
    body: {
      title: '未来のあなたへ',
      body: '元気ですか。',
      recipients: recipients ?? [{ kind: 'member', user_id: reader.id }],
      delivery,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().timeCapsuleLetterId;
}

const deliveriesOf = (letterId: string) =>
  db().select().from(letterDeliveries).where(eq(letterDeliveries.letterId, letterId));

describe('delivering due letters', () => {
  it('delivers each recipient once at the due time: record, notification, and a mail with a link', async () => {
    const guestEmail = 'guest-once@example.jp';
    const id = await write({ rule: 'date', send_at: '2026-11-22T10:00' }, [
      { kind: 'member', user_id: reader.id },
      { kind: 'guest', last_name: '高橋', first_name: '桜', email: guestEmail },
    ]);
    t.clock.set('2026-11-22T00:59:59Z');
    expect(await deliverAllDueLetters(timecapsuleDepsOf(t.ctx))).toBe(0);
    t.clock.set('2026-11-22T01:00:00Z');
    expect(await deliverAllDueLetters(timecapsuleDepsOf(t.ctx))).toBe(1);
    expect(await deliverAllDueLetters(timecapsuleDepsOf(t.ctx))).toBe(0);

    const deliveries = await deliveriesOf(id);
    expect(deliveries).toHaveLength(2);
    expect(deliveries.every((d) => d.late === false)).toBe(true);
    const notices = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, reader.id));
    expect(notices.filter((n) => (n.payload as { letterId: string }).letterId === id)).toEqual([
      expect.objectContaining({
        kind: 'letter_delivered',
        payload: { letterId: id, senderName: '佐藤 花子', title: '未来のあなたへ' },
      }),
    ]);

    expect(await sendMails()).toEqual({
      sent: 2,
      failed: 0,
    });
    expect(await sendMails()).toEqual({
      sent: 0,
      failed: 0,
    });
    const toMember = t.mailbox.find((m) => m.to === reader.email)!;
    expect(toMember.link).toBe(`${t.config.publicUrl}/timecapsule/letters/${id}`);
    expect(toMember.subject).toContain('佐藤 花子');
    expect(toMember.text).toContain(toMember.link);
    const toGuest = t.mailbox.find((m) => m.to === guestEmail)!;
    expect(toGuest.link).toMatch(/\/timecapsule\/claim\?token=[A-Za-z0-9_-]{43}$/);
    // Sent mails keep no copy of a non-member's claim link.
    const outbox = await db().select().from(mailOutbox);
    expect(
      outbox.filter((m) => m.sentAt !== null).every((m) => m.link === null && m.text === null),
    ).toBe(true);
  });

  it('refuses a second delivery of a letter to a recipient at the database', async () => {
    const id = await write({ rule: 'date', send_at: '2026-11-22T09:30' });
    t.clock.set('2026-11-22T00:30:00Z');
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    const [first] = await deliveriesOf(id);
    await expect(
      db().insert(letterDeliveries).values({
        letterId: id,
        recipientId: first!.recipientId,
        deliveredAt: t.clock.now(),
        late: false,
      }),
    ).rejects.toThrow();
  });

  it('delivers concurrent claims of the same due letters exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i += 1)
      ids.push(await write({ rule: 'date', send_at: '2026-11-22T09:30' }));
    t.clock.set('2026-11-22T00:30:00Z');
    const counts = await Promise.all(
      [1, 2, 3, 4].map(() => deliverAllDueLetters(timecapsuleDepsOf(t.ctx), { batchSize: 7 })),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
    const rows = await db()
      .select({ letterId: letterDeliveries.letterId, n: sql<number>`count(*)::int` })
      .from(letterDeliveries)
      .where(sql`${letterDeliveries.letterId} in ${ids}`)
      .groupBy(letterDeliveries.letterId);
    expect(rows).toHaveLength(30);
    expect(rows.every((row) => row.n === 1)).toBe(true);
  });

  it(`marks a letter delivered more than ${LATE_AFTER_MINUTES} minutes after its time as late, and says so`, async () => {
    const onTime = await write({ rule: 'date', send_at: '2026-11-22T10:00' });
    const late = await write({ rule: 'date', send_at: '2026-11-22T09:30' });
    t.clock.set(new Date(Date.parse('2026-11-22T01:00:00Z') + LATE_AFTER_MINUTES * MINUTE));
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    expect((await deliveriesOf(onTime))[0]!.late).toBe(false);
    expect((await deliveriesOf(late))[0]!.late).toBe(true);
    await sendMails();
    const lateMail = t.mailbox.find((m) => m.link?.endsWith(late))!;
    expect(lateMail.text).toContain('2026年11月22日 9:30');
    expect(lateMail.text).toContain('遅れて');
    expect(t.mailbox.find((m) => m.link?.endsWith(onTime))!.text).not.toContain('遅れて');
    const read = await t.request({
      method: 'GET',
      url: `${BASE}/${late}`,
      token: await signIn(reader),
    });
    expect(read.json()).toMatchObject({ late: true, dueAt: '2026-11-22T00:30:00.000Z' });
  });
});

describe('sending mails', () => {
  it('retries a failed mail with growing waits, then sends it', async () => {
    const id = await write({ rule: 'date', send_at: '2026-11-22T09:30' });
    t.clock.set('2026-11-22T00:30:00Z');
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    const down: Mailer = { send: async () => Promise.reject(new Error('SMTP 421 try later')) };

    expect(await sendMails(down)).toEqual({ sent: 0, failed: 1 });
    t.clock.advance(retryDelayMs(1) - 1);
    expect(await sendMails(down)).toEqual({ sent: 0, failed: 0 });
    t.clock.advance(1);
    expect(await sendMails(down)).toEqual({ sent: 0, failed: 1 });
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
    t.clock.advance(retryDelayMs(2));
    expect(await sendMails()).toEqual({
      sent: 1,
      failed: 0,
    });
    expect(t.mailbox.map((m) => m.link)).toEqual([
      `${t.config.publicUrl}/timecapsule/letters/${id}`,
    ]);
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .innerJoin(letterDeliveries, eq(letterDeliveries.id, mailOutbox.deliveryId))
      .where(eq(letterDeliveries.letterId, id));
    expect(mail!.mail_outbox).toMatchObject({ attempts: 3, lastError: null });
  });

  it('retries a failing mail for a day, then gives it up and counts it for the operator', async () => {
    await write({ rule: 'date', send_at: '2026-11-22T09:30' });
    t.clock.set('2026-11-22T00:30:00Z');
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    const start = t.clock.now().getTime();
    const down: Mailer = { send: async () => Promise.reject(new Error('mailbox unavailable')) };
    const failedBefore = await failedMailsCounted();
    let attempts = 0;
    for (;;) {
      expect(await sendMails(down)).toEqual({ sent: 0, failed: 1 });
      attempts += 1;
      const [row] = await db()
        .select()
        .from(mailOutbox)
        .where(sql`${mailOutbox.sentAt} is null`);
      if (row!.failedAt) break;
      expect(t.clock.now().getTime() - start).toBeLessThan(MAIL_RETRY_WINDOW_MS);
      t.clock.advance(retryDelayMs(attempts));
    }
    expect(t.clock.now().getTime() - start).toBeGreaterThanOrEqual(MAIL_RETRY_WINDOW_MS);
    expect(attempts).toBeGreaterThan(10);
    t.clock.advance(7 * 24 * 60 * MINUTE);
    expect(await sendMails()).toEqual({ sent: 0, failed: 0 });
    const failed = await db()
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.failedAt} is not null`);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.lastError).toBe('mailbox unavailable');
    expect(await failedMailsCounted()).toBe(failedBefore + 1);
  });

  it('sends a mail again after a crash between sending and marking, with the same Message-ID', async () => {
    await write({ rule: 'date', send_at: '2026-11-22T09:30' });
    t.clock.set('2026-11-22T00:30:00Z');
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    const wire: string[] = [];
    // The relay takes the mail, then the process dies before the outbox records it.
    const crashAfterSending: Mailer = {
      send: async (mail) => {
        wire.push(mail.messageId);
        throw Object.assign(new Error('process killed'), { crash: true });
      },
    };
    const sent = await sendMails(crashAfterSending);
    expect(sent.failed).toBe(1);
    // A crash leaves the claim's lease: the mail is tried again once the lease runs out.
    await db()
      .update(mailOutbox)
      .set({ nextAttemptAt: t.clock.now() })
      .where(sql`${mailOutbox.sentAt} is null`);
    const recording: Mailer = { send: async (mail) => void wire.push(mail.messageId) };
    expect(await sendMails(recording)).toEqual({ sent: 1, failed: 0 });
    expect(wire).toHaveLength(2);
    expect(wire[1]).toBe(wire[0]);
    const mailId = /^<([0-9a-f-]{36})@localhost>$/.exec(wire[0]!)![1]!;
    const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, mailId));
    expect(messageIdOf(row!.id, t.config.publicUrl)).toBe(wire[0]);
    expect(row!.sentAt).not.toBeNull();
    expect(wire[0]).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
  });

  it('the delivery loop delivers and the outbox job mails, driven by the injected clock', async () => {
    const id = await write({ rule: 'date', send_at: '2026-11-22T09:30' });
    t.clock.set('2026-11-22T00:30:00Z');
    const job = startLetterDelivery(t.ctx, 60 * MINUTE);
    const outbox = startMailOutbox(t.ctx, 60 * MINUTE);
    await job.tick();
    await outbox.run();
    await Promise.all([job.stop(), outbox.stop()]);
    expect(await deliveriesOf(id)).toHaveLength(1);
    expect(t.mailbox.map((m) => m.link)).toEqual([
      `${t.config.publicUrl}/timecapsule/letters/${id}`,
    ]);
  });
});

describe('death-triggered letters', () => {
  it('wait while the writer lives, and take their time from the rule on releaseLettersOnDeath', async () => {
    const atOnce = await write({ rule: 'death', delay_days: 0 });
    const month = await write({ rule: 'death', delay_days: 30 });
    const seventhYear = await write({ rule: 'death_anniversary', anniversary_years: 6 });
    const birthday = await write({ rule: 'date_after_death', after_death_date: '2030-04-01' });
    const passedBirthday = await write({
      rule: 'date_after_death',
      after_death_date: '2027-01-01',
    });
    t.clock.set('2100-01-01T00:00:00Z');
    expect(await deliverAllDueLetters(timecapsuleDepsOf(t.ctx))).toBe(0);

    // Confirmed 2028-02-29 23:30 JST (14:30 UTC): the Japan date is 29 February.
    const confirmedAt = new Date('2028-02-29T14:30:00Z');
    expect(await releaseLettersOnDeath({ db: db() }, writer.id, confirmedAt)).toBe(5);
    expect(
      await releaseLettersOnDeath({ db: db() }, writer.id, new Date('2029-01-01T00:00:00Z')),
    ).toBe(0);
    const due = Object.fromEntries(
      (
        await db()
          .select({ id: timeCapsuleLetters.id, dueAt: timeCapsuleLetters.dueAt })
          .from(timeCapsuleLetters)
          .where(eq(timeCapsuleLetters.senderUserId, writer.id))
      ).map((row) => [row.id, row.dueAt?.toISOString()]),
    );
    expect(due[atOnce]).toBe('2028-02-29T14:30:00.000Z');
    expect(due[month]).toBe('2028-03-30T14:30:00.000Z');
    // 2034 has no 29 February: 28 February, 09:00 Japan time.
    expect(due[seventhYear]).toBe('2034-02-28T00:00:00.000Z');
    expect(due[birthday]).toBe('2030-04-01T00:00:00.000Z');
    expect(due[passedBirthday]).toBe('2028-02-29T14:30:00.000Z');

    t.clock.set(confirmedAt);
    expect(await deliverAllDueLetters(timecapsuleDepsOf(t.ctx))).toBe(2);
    t.clock.set('2030-04-01T00:00:00Z');
    expect(await deliverAllDueLetters(timecapsuleDepsOf(t.ctx))).toBe(2);
    t.clock.set('2034-02-28T00:00:00Z');
    expect(await deliverAllDueLetters(timecapsuleDepsOf(t.ctx))).toBe(1);
    expect((await deliveriesOf(seventhYear))[0]!.late).toBe(false);
  });
});

describe('letters to people who are not yet members', () => {
  it('open for the member who registers with the addressed email, through the mailed link', async () => {
    const email = 'Sakura.Takahashi@example.jp';
    const id = await write({ rule: 'date', send_at: '2026-11-22T09:30' }, [
      { kind: 'guest', last_name: '高橋', first_name: '桜', email },
    ]);
    t.clock.set('2026-11-22T00:30:00Z');
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    await sendMails();
    const link = new URL(t.mailbox.find((m) => m.to === email)!.link!);
    const token = link.searchParams.get('token')!;

    const someoneElse = await createMember(t);
    const wrong = await t.request({
      method: 'POST',
      url: `${BASE}/claim`,
      token: someoneElse.token,
      body: { token },
    });
    expect(wrong.statusCode).toBe(404);
    const sakura = await createMember(t, {
      email: 'sakura.takahashi@example.jp',
      lastName: '高橋',
      firstName: '桜',
    });
    const forged = await t.request({
      method: 'POST',
      url: `${BASE}/claim`,
      token: sakura.token,
      body: { token: `${token}x` },
    });
    expect(forged.statusCode).toBe(404);
    for (let i = 0; i < 2; i += 1) {
      const claim = await t.request({
        method: 'POST',
        url: `${BASE}/claim`,
        token: sakura.token,
        body: { token },
      });
      expect(claim.statusCode).toBe(200);
      expect(claim.json()).toEqual({ timeCapsuleLetterId: id });
    }
    const again = await t.request({
      method: 'POST',
      url: `${BASE}/claim`,
      token: someoneElse.token,
      body: { token },
    });
    expect(again.statusCode).toBe(404);

    const received = await t.request({
      method: 'GET',
      url: `${BASE}/get_received_letters`,
      token: sakura.token,
    });
    expect(received.json()).toEqual([
      expect.objectContaining({ timeCapsuleLetterId: id, senderLastName: '佐藤' }),
    ]);
    const read = await t.request({ method: 'GET', url: `${BASE}/${id}`, token: sakura.token });
    expect(read.json()).toMatchObject({ role: 'recipient', body: '元気ですか。' });
  });
});

async function failedMailsCounted(): Promise<number> {
  const metric = await t.ctx.metrics.mailsFailed.get();
  return metric.values.find((value) => value.labels.kind === 'letter')?.value ?? 0;
}
