import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, mailReports } from '../../server/db/schema';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { timecapsuleDepsOf } from '../../server/areaDeps';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { japaneseTexts } from '../../server/lib/translations';
import { createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

const BASE = '/v1/time_capsule_letter';
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const guest = (email: string, lastName = '高橋', firstName = '桜') => ({
  kind: 'guest',
  last_name: lastName,
  first_name: firstName,
  email,
});

/** A letter to the given non-members for a day a year after the test clock's now. */
const letterTo = (recipients: unknown[], title = '二十歳のあなたへ') => {
  const sendAt = new Date(t.clock.now().getTime() + 365 * DAY_MS + 9 * 60 * 60 * 1000);
  return {
    title,
    body: 'おめでとう。',
    recipients,
    admin_user_ids: [],
    delivery: { rule: 'date', send_at: sendAt.toISOString().slice(0, 16) },
  };
};

const write = (member: TestMember, body: unknown) =>
  t.request({ method: 'POST', url: BASE, token: member.token, body });

const addresses = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index}@example.jp`);

describe('new non-member addresses a member may write to', () => {
  it('are at most the day’s allowance; known addresses stay usable and the next day frees more', async () => {
    const writer = await createMember(t);
    const first = addresses(`first-${writer.id}`, 5);
    expect((await write(writer, letterTo(first.slice(0, 3).map((e) => guest(e))))).statusCode).toBe(
      201,
    );
    expect((await write(writer, letterTo(first.slice(3).map((e) => guest(e))))).statusCode).toBe(
      201,
    );

    const refused = await write(writer, letterTo([guest(`sixth-${writer.id}@example.jp`)]));
    expect(refused.statusCode).toBe(429);
    const texts = await japaneseTexts();
    expect(refused.json()).toEqual({
      code: 'guest_addresses_per_day',
      detail: texts('timecapsule-error-guest_addresses_per_day', { limit: '5' }),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // An address already written to is not new, in any case of letters.
    const again = await write(writer, letterTo([guest(first[0]!.toUpperCase())]));
    expect(again.statusCode).toBe(201);

    // Deleting a letter does not give its addresses' places back.
    const id = again.json().timeCapsuleLetterId;
    await t.request({ method: 'DELETE', url: `${BASE}/${id}`, token: writer.token });
    expect(
      (await write(writer, letterTo([guest(`seventh-${writer.id}@example.jp`)]))).statusCode,
    ).toBe(429);

    t.clock.advance(DAY_MS);
    writer.token = await issueAccessToken(writer.id, t.config.authSecret, t.clock);
    expect(
      (await write(writer, letterTo([guest(`sixth-${writer.id}@example.jp`)]))).statusCode,
    ).toBe(201);
  });

  it('are counted when a letter is changed too', async () => {
    const writer = await createMember(t);
    const created = await write(
      writer,
      letterTo(addresses(`edit-${writer.id}`, 5).map((e) => guest(e))),
    );
    expect(created.statusCode).toBe(201);
    const id = created.json().timeCapsuleLetterId;
    const changed = await t.request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      token: writer.token,
      body: letterTo([guest(`other-${writer.id}@example.jp`)]),
    });
    expect(changed.statusCode).toBe(429);
  });
});

describe('the mail a letter sends to a non-member', () => {
  const hostileTitle = 'Win at http://evil.example/x 「しのぶ公式」  ご案内 mail@evil.example';

  async function deliveredMail() {
    const writer = await createMember(t, { lastName: 'www.evil.example', firstName: '太郎' });
    const email = `reader-${writer.id}@example.jp`;
    const created = await write(
      writer,
      letterTo([guest(email, '高橋', 'https://x.example')], hostileTitle),
    );
    expect(created.statusCode).toBe(201);
    t.clock.advance(366 * DAY_MS);
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    const [mail] = await t.ctx.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toEmail, email));
    return { writer, mail: mail! };
  }

  it('says a member wrote it, quotes their words as plain text that makes no link, and carries a report link', async () => {
    const { mail } = await deliveredMail();
    const texts = await japaneseTexts();
    const text = mail.text!;
    expect(text).toContain(texts('letter-mail-label'));
    expect(text).toContain(texts('letter-mail-arrived', { sender: 'www．evil．example 太郎' }));
    expect(text).toContain(
      texts('letter-mail-title', {
        title: 'Win at http：／／evil．example／x 『しのぶ公式』 ご案内 mail＠evil．example',
      }),
    );
    expect(text).toContain(
      texts('letter-mail-greeting', { recipient: '高橋 https：／／x．example' }),
    );
    expect(mail.subject).toBe(texts('letter-mail-subject', { sender: 'www．evil．example 太郎' }));
    // The only addresses and links in the mail are the service's own.
    const links = text.match(/https?:\/\/\S+/g) ?? [];
    expect(links.length).toBe(2);
    for (const link of links) expect(link.startsWith(`${t.config.publicUrl}/`)).toBe(true);
    expect(text).not.toMatch(/evil\.example|[\w.]+@[\w.]+/);
    expect(text).toMatch(new RegExp(`${t.config.publicUrl}/mail-report\\?token=[\\w-]+`));
  });

  it('is reported once through its link, without sign-in, however often the report is sent', async () => {
    const { writer, mail } = await deliveredMail();
    const reportUrl = new URL(mail.text!.match(/http\S+\/mail-report\?token=\S+/)![0]);
    const token = reportUrl.searchParams.get('token')!;
    const page = await t.request({ method: 'GET', url: `/mail-report?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain((await japaneseTexts())('mail-report-submit'));
    // Opening the page records nothing: a link scanner reports no mail.
    expect(
      await t.ctx.database.db.select().from(mailReports).where(eq(mailReports.mailId, mail.id)),
    ).toEqual([]);

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const reported = await t.request({ method: 'POST', url: '/mail-report', form: { token } });
      expect(reported.statusCode).toBe(200);
      expect(reported.body).toContain((await japaneseTexts())('mail-report-done'));
    }
    const rows = await t.ctx.database.db
      .select()
      .from(mailReports)
      .where(eq(mailReports.mailId, mail.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      senderUserId: writer.id,
      kind: 'letter',
      toEmail: mail.toEmail,
    });

    const forged = await t.request({
      method: 'POST',
      url: '/mail-report',
      form: { token: `${token}x` },
    });
    expect(forged.statusCode).toBe(400);
  });
});
