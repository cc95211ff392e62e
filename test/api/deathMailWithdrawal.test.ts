import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../server/domain/accounts/passwords';
import { releaseDepsOf, timecapsuleDepsOf } from '../../server/areaDeps';
import { releaseDueCases } from '../../server/domain/deathDetection/release';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { outboxBacklog } from '../../server/mail/outbox';
import { loginFrom, newClient } from './accountsSupport';
import { connectMembers, createMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import {
  confirmDeath,
  reportSuspicion,
  setAdministrators,
  tokenOf,
  verifyIdentity,
} from './deathDetectionSupport';

/**
 * The mails about a member's death that had not gone yet when the member cancels the case are
 * withdrawn: never sent, counted in the cancel's answer and on the case page.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse battery staple';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface OutboxRow {
  kind: string;
  withdrawn_at: unknown;
  sent_at: unknown;
  text: string | null;
}
async function mailsAbout(userId: string): Promise<OutboxRow[]> {
  const result = await t.ctx.database.db.execute(
    sql`select kind, withdrawn_at, sent_at, text from mail_outbox
        where about_user_id = ${userId} order by created_at, kind`,
  );
  return (result as unknown as { rows: OutboxRow[] }).rows;
}

describe('mails about a death that is cancelled', () => {
  it('withdraws the suspicion and grace mails not sent yet, and says how many', async () => {
    const member = await createMember(t, {
      lastName: '佐藤',
      firstName: '花子',
      passwordHash: await hashPassword(PASSWORD),
    });
    const watcher = await createMember(t, { lastName: '佐藤', firstName: '一郎' });
    await connectMembers(t, member, watcher, 'family');
    await setAdministrators(t, member, [watcher], 'any_one', null, PASSWORD);
    t.clock.advance(7 * DAY_MS);
    const keys = await verifyIdentity(t, watcher);

    // The mail server is down while the 見守り役 reports and confirms: the mails wait. The
    // app's mailer itself refuses (its outbox was given it once, when the app was built).
    const send = t.ctx.mailer.send;
    t.ctx.mailer.send = () => Promise.reject(new Error('connection refused'));
    expect((await reportSuspicion(t, watcher, member)).statusCode).toBe(201);
    expect((await confirmDeath(t, watcher, keys, member)).json().state).toBe('grace');
    t.ctx.mailer.send = send;
    const waiting = await mailsAbout(member.id);
    expect(waiting.map((mail) => mail.kind).sort()).toEqual([
      'death_suspected',
      'death_suspected',
      'grace_started',
    ]);
    expect(waiting.every((mail) => mail.sent_at === null && mail.withdrawn_at === null)).toBe(true);
    const mailedBefore = t.mailbox.length;

    // The member is alive and cancels: the three are withdrawn; the cancellation's own mail goes.
    const cancelled = await t.request({
      method: 'POST',
      url: '/v1/fpos/cancel_death_suspected_at',
      token: await tokenOf(t, member),
      body: { death_suspected_user_id: member.id },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toEqual({ state: 'alive', mailsWithdrawn: 3 });
    t.clock.advance(DAY_MS);
    await t.sendMail();
    const sent = t.mailbox.slice(mailedBefore);
    expect(sent.filter((mail) => mail.to === member.email)).toEqual([]);
    expect(sent.filter((mail) => mail.to === watcher.email).map((mail) => mail.subject)).toEqual([
      '【しのぶ】佐藤 花子様のご無事が確認されました',
    ]);
    const after = await mailsAbout(member.id);
    expect(after).toHaveLength(3);
    expect(after.every((mail) => mail.withdrawn_at !== null && mail.sent_at === null)).toBe(true);
    expect(after.every((mail) => mail.text === null)).toBe(true);
    expect((await outboxBacklog(t.ctx.database.db, t.clock)).pending).toBe(0);

    // The case page keeps the count with the cancelled report.
    const page = await t.request({
      method: 'GET',
      url: `/v1/fpos/death_case/${member.id}`,
      token: await tokenOf(t, watcher),
    });
    expect(page.json().lastCancelled).toMatchObject({ cancelledBy: 'cancel', mailsWithdrawn: 3 });

    // Nothing open: a second cancel withdraws nothing.
    const again = await t.request({
      method: 'POST',
      url: '/v1/fpos/cancel_death_suspected_at',
      token: await tokenOf(t, member),
      body: { death_suspected_user_id: member.id },
    });
    expect(again.json()).toEqual({ state: 'alive', mailsWithdrawn: 0 });
  });

  it('withdraws the mail of a letter the release delivered when the account is restored', async () => {
    const member = await createMember(t, {
      lastName: '鈴木',
      firstName: '和子',
      passwordHash: await hashPassword(PASSWORD),
    });
    const watcher = await createMember(t, { lastName: '鈴木', firstName: '一郎' });
    const friend = await createMember(t, { lastName: '田中', firstName: '友子' });
    await connectMembers(t, member, watcher, 'family');
    await connectMembers(t, member, friend, 'friend');
    await setAdministrators(t, member, [watcher], 'any_one', null, PASSWORD);
    t.clock.advance(7 * DAY_MS);
    const letter = await t.request({
      method: 'POST',
      url: '/v1/time_capsule_letter',
      token: await tokenOf(t, member),
      body: {
        title: 'ありがとう',
        body: 'いままでありがとう。',
        recipients: [{ kind: 'member', user_id: friend.id }],
        admin_user_ids: [],
        delivery: { rule: 'death', delay_days: 0 },
      },
    });
    expect(letter.statusCode, letter.body).toBe(201);
    const keys = await verifyIdentity(t, watcher);
    expect((await reportSuspicion(t, watcher, member)).statusCode).toBe(201);
    expect((await confirmDeath(t, watcher, keys, member)).json().state).toBe('grace');
    t.clock.advance(7 * DAY_MS + 60_000);
    expect(await releaseDueCases(releaseDepsOf(t.ctx))).toBe(1);

    // The friend's mail server refuses while the letter is delivered: its mail waits.
    const send = t.ctx.mailer.send;
    t.ctx.mailer.send = (mail) =>
      mail.to === friend.email ? Promise.reject(new Error('mailbox unavailable')) : send(mail);
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    await t.sendMail();
    expect((await mailsAbout(member.id)).filter((mail) => mail.kind === 'letter')).toEqual([
      expect.objectContaining({ sent_at: null, withdrawn_at: null }),
    ]);

    // The member, alive, restores the account: the letter's mail does not go.
    expect((await loginFrom(t, newClient(), member.email, PASSWORD)).statusCode).toBe(403);
    await t.sendMail();
    const link = t.mailbox.findLast((m) => m.to === member.email && m.link?.includes('/restore'));
    const token = new URL(link!.link!).searchParams.get('token')!;
    const restored = await t.request({
      method: 'POST',
      url: '/v1/account_restoration',
      body: { token, password: PASSWORD },
    });
    expect(restored.statusCode, restored.body).toBe(200);
    t.ctx.mailer.send = send;
    t.clock.advance(DAY_MS);
    await t.sendMail();
    const letterSubject = '【しのぶ】鈴木 和子 さんからタイムカプセルの手紙が届きました';
    expect(t.mailbox.filter((m) => m.to === friend.email).map((m) => m.subject)).not.toContain(
      letterSubject,
    );
    const letterMails = (await mailsAbout(member.id)).filter((mail) => mail.kind === 'letter');
    expect(letterMails).toEqual([expect.objectContaining({ sent_at: null })]);
    expect(letterMails[0]!.withdrawn_at).not.toBeNull();
    const log = await t.ctx.database.db.execute(
      sql`select detail from death_audit_log where user_id = ${member.id} and action = 'restored'`,
    );
    const detail = (log as unknown as { rows: { detail: { mailsWithdrawn: number } }[] }).rows[0]!;
    expect(detail.detail.mailsWithdrawn).toBe(1);

    // The case page tells it as a restoration, with the count and the 見守り役's confirmation.
    const page = await t.request({
      method: 'GET',
      url: `/v1/fpos/death_case/${member.id}`,
      token: await tokenOf(t, watcher),
    });
    expect(page.json().lastCancelled).toMatchObject({ cancelledBy: 'restored', mailsWithdrawn: 1 });
    expect(page.json().confirmations).toEqual([
      expect.objectContaining({ administratorUserId: watcher.id }),
    ]);
  });
});
