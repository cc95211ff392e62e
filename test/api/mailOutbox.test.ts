import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../../server/db/schema';
import { outboxDepsOf } from '../../server/areaDeps';
import { createMailer } from '../../server/mail/mailer';
import { messageIdOf, retryDelayMs, sendPendingMails } from '../../server/mail/outbox';
import { startSmtpSink, type SmtpSink } from '../support/smtpSink';
import { waitFor } from './letterDeliveryServers';
import { createTestApp, type TestApp } from '../support/testApp';
import { lastActivationLink, registrationBody } from './accountsSupport';

let t: TestApp;
let sink: SmtpSink;
beforeAll(async () => {
  t = await createTestApp();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const db = () => t.ctx.database.db;

async function mailsOf(email: string) {
  const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
  return db()
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.userId, user!.id))
    .orderBy(mailOutbox.createdAt);
}

describe('one outbox for every mail', () => {
  it('writes the activation mail with the account and sends it through the job', async () => {
    const body = registrationBody();
    const response = await t.app.inject({ method: 'POST', url: '/v1/user', payload: body });
    expect(response.statusCode).toBe(202);
    // Written with the account, not yet sent: the job runner sends it.
    const [pending] = await mailsOf(body.email);
    expect(pending).toMatchObject({ kind: 'activation', sentAt: null, toEmail: body.email });
    expect(t.mailbox.some((mail) => mail.to === body.email)).toBe(false);
    await t.sendMail();
    const sent = t.mailbox.find((mail) => mail.to === body.email)!;
    expect(sent.messageId).toBe(messageIdOf(pending!.id, t.config.publicUrl));
    const [after] = await mailsOf(body.email);
    expect(after).toMatchObject({ sentAt: expect.any(Date), text: null, link: null });
  });

  it('sends an activation link again on request, and nothing for other addresses', async () => {
    const body = registrationBody();
    await t.request({ method: 'POST', url: '/v1/user', body });
    const first = lastActivationLink(t);
    const resent = await t.request({
      method: 'POST',
      url: '/v1/user/resend_activation',
      body: { email: body.email },
    });
    expect(resent.statusCode).toBe(202);
    const second = lastActivationLink(t);
    expect(second.token).not.toBe(first.token);
    const activated = await t.request({
      method: 'POST',
      url: `/v1/user/confirm/${encodeURIComponent(second.token)}/${encodeURIComponent(second.email)}`,
      body: { password: body.password },
    });
    expect(activated.statusCode).toBe(200);

    const mailsBefore = t.mailbox.length;
    for (const email of [body.email, 'nobody-here@example.jp']) {
      const answer = await t.request({
        method: 'POST',
        url: '/v1/user/resend_activation',
        body: { email },
      });
      expect(answer.statusCode).toBe(202);
      expect(answer.json()).toEqual(resent.json());
    }
    expect(t.mailbox.length).toBe(mailsBefore);
  });

  it('retries through a real SMTP relay that refuses, with the same Message-ID, until it takes the mail', async () => {
    const body = registrationBody();
    await t.app.inject({ method: 'POST', url: '/v1/user', payload: body });
    await t.app.inject({
      method: 'POST',
      url: '/v1/user/resend_activation',
      payload: { email: body.email },
    });
    const deps = {
      ...outboxDepsOf(t.ctx),
      mailer: createMailer({
        smtpUrl: sink.url,
        from: t.config.mailFrom,
        outboxDir: t.config.dataDir,
        log: t.ctx.log,
        logLinks: false,
      }),
    };
    sink.refuseNext(100);
    expect(await sendPendingMails(deps)).toMatchObject({ sent: 0 });
    sink.refuseNext(0);
    t.clock.advance(retryDelayMs(1));
    expect(await sendPendingMails(deps)).toMatchObject({ failed: 0 });
    const rows = await mailsOf(body.email);
    expect(rows.map((row) => row.kind)).toEqual(['activation', 'activation']);
    for (const row of rows) {
      expect(row).toMatchObject({ attempts: 2, sentAt: expect.any(Date) });
      const arrived = sink.received.filter((mail) => mail.to.includes(body.email));
      expect(arrived.map((mail) => mail.messageId)).toContain(
        messageIdOf(row.id, t.config.publicUrl),
      );
    }
    expect(sink.received.filter((mail) => mail.to.includes(body.email))).toHaveLength(2);
  });

  it('waits the configured backoff, doubling up to its longest wait, and holds a claim as long as configured', async () => {
    const body = registrationBody();
    await t.app.inject({ method: 'POST', url: '/v1/user', payload: body });
    const retry = { firstRetryMs: 2_000, maxRetryMs: 3_000, claimMs: 10_000 };
    const deps = {
      ...outboxDepsOf(t.ctx),
      retry,
      mailer: createMailer({
        smtpUrl: sink.url,
        from: t.config.mailFrom,
        outboxDir: t.config.dataDir,
        log: t.ctx.log,
        logLinks: false,
      }),
    };
    const tries = async () => (await mailsOf(body.email))[0]!.attempts;
    sink.refuseNext(100);
    await sendPendingMails(deps);
    expect(await tries()).toBe(1);
    // 2 s after the first failure, then 3 s (twice 2 s, held at the longest wait).
    for (const wait of [retryDelayMs(1, retry), retryDelayMs(2, retry)]) {
      t.clock.advance(wait - 1);
      await sendPendingMails(deps);
      const before = await tries();
      t.clock.advance(1);
      await sendPendingMails(deps);
      expect(await tries()).toBe(before + 1);
    }
    expect([retryDelayMs(1, retry), retryDelayMs(2, retry)]).toEqual([2_000, 3_000]);
    // A sender that claims the mail and never reports back (killed mid-send): the mail is
    // taken again once its 10 s claim has passed, not before.
    sink.refuseNext(0);
    const hung = { ...deps, mailer: { send: () => new Promise<void>(() => undefined) } };
    t.clock.advance(retryDelayMs(3, retry));
    const claimedTries = (await tries()) + 1;
    void sendPendingMails(hung);
    await waitFor('the claim', async () => (await tries()) === claimedTries);
    t.clock.advance(retry.claimMs - 1);
    await sendPendingMails(deps);
    expect((await mailsOf(body.email))[0]!.sentAt).toBeNull();
    t.clock.advance(1);
    await sendPendingMails(deps);
    expect((await mailsOf(body.email))[0]!.sentAt).toEqual(expect.any(Date));
  });
});
