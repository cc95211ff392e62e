import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deathDepsOf } from '../../server/areaDeps';
import { runSuspicionSweep } from '../../server/domain/deathDetection/sweep';
import { outboxDepsOf } from '../../server/areaDeps';
import { sendAllPendingMails } from '../../server/mail/outbox';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { setAdministrators, tokenOf, verifyIdentity } from './deathDetectionSupport';

const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let revocationDir: string;
let revocationList: string;
beforeAll(async () => {
  revocationDir = mkdtempSync(path.join(tmpdir(), 'shinobu-revocation-'));
  revocationList = path.join(revocationDir, 'revoked.txt');
  writeFileSync(revocationList, '# revoked identity certificates\n');
  t = await createTestApp({ IDENTITY_REVOCATION_LIST_FILE: revocationList });
});
afterAll(async () => {
  await t.close();
  rmSync(revocationDir, { recursive: true, force: true });
});

/** A sweep, then the outbox's due mails sent as the job runner would. */
const sweep = async () => {
  const result = await runSuspicionSweep(deathDepsOf(t.ctx));
  await t.sendMail();
  return result;
};

async function suspicionOf(member: TestMember) {
  const response = await t.request({
    method: 'GET',
    url: '/v1/fpos/death_suspected_user',
    token: await tokenOf(t, member),
  });
  return response.json();
}

async function signalSources(reader: TestMember, member: TestMember): Promise<string[]> {
  const log = await t.request({
    method: 'GET',
    url: `/v1/fpos/death_audit_log/${member.id}`,
    token: await tokenOf(t, reader),
  });
  return log
    .json()
    .items.filter((entry: { action: string }) => entry.action === 'suspicion_raised')
    .map((entry: { source: string }) => entry.source);
}

describe('the periodic suspicion sweep', () => {
  it('finds an expired certificate: REVOKED and a certificate signal', async () => {
    const member = await createMember(t);
    await verifyIdentity(t, member, { validDays: 10 });
    await sweep();
    expect((await suspicionOf(member)).userId).toBeNull();
    t.clock.advance(11 * DAY_MS);
    const result = await sweep();
    expect(result.certificatesExpired).toBeGreaterThanOrEqual(1);
    expect((await suspicionOf(member)).userId).toBe(member.id);
    expect(await signalSources(member, member)).toEqual(['certificate']);
    // Found once: the next sweep does not raise it again.
    await sweep();
    expect(await signalSources(member, member)).toEqual(['certificate']);
  });

  it('finds a certificate on the revocation list', async () => {
    const member = await createMember(t);
    const keys = await verifyIdentity(t, member);
    const fingerprint = new X509Certificate(keys.certificatePem).fingerprint256;
    writeFileSync(revocationList, `${fingerprint.toLowerCase()}\n`, { flag: 'a' });
    const result = await sweep();
    expect(result.certificatesRevoked).toBe(1);
    const status = await t.request({
      method: 'GET',
      url: '/v1/identity_verification/status',
      token: await tokenOf(t, member),
    });
    expect(status.json()).toMatchObject({ authStatus: 'REVOKED', revokedReason: 'revoked' });
    expect(await signalSources(member, member)).toEqual(['certificate']);
  });

  it('mails a check-in after the chosen period; an answer keeps the member unsuspected', async () => {
    const member = await createMember(t, { lastActiveAt: t.clock.now() });
    const administrator = await createMember(t);
    await connectMembers(t, member, administrator, 'family');
    await setAdministrators(t, member, [administrator], 'any_one', 30);
    t.clock.advance(29 * DAY_MS);
    await sweep();
    const checkIns = () =>
      t.mailbox.filter((mail) => mail.to === member.email && mail.subject.includes('お変わり'));
    expect(checkIns()).toEqual([]);

    t.clock.advance(2 * DAY_MS);
    expect((await sweep()).checkInsSent).toBeGreaterThanOrEqual(1);
    const mail = checkIns().at(-1)!;
    expect(mail.subject).toContain('お変わりありませんか');
    const link = new URL(mail.link!);
    // Opening the link only shows the button; pressing it answers.
    const page = await t.request({ method: 'GET', url: link.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    t.clock.advance(15 * DAY_MS);
    const answered = await t.request({
      method: 'POST',
      url: link.pathname,
      headers: { accept: 'application/json' },
    });
    // Answered after the answer-by time but before a sweep escalated it: still counts.
    expect(answered.statusCode).toBe(200);
    expect((await sweep()).checkInsEscalated).toBe(0);
    expect((await suspicionOf(member)).userId).toBeNull();
    const reused = await t.request({ method: 'POST', url: link.pathname });
    expect(reused.statusCode).toBe(404);
  });

  it('an unanswered check-in raises an inactivity signal for the administrators', async () => {
    const member = await createMember(t, { lastActiveAt: t.clock.now() });
    const administrator = await createMember(t);
    await connectMembers(t, member, administrator, 'family');
    await setAdministrators(t, member, [administrator], 'any_one', 30);
    t.clock.advance(31 * DAY_MS);
    await sweep();
    t.clock.advance(14 * DAY_MS);
    expect((await sweep()).checkInsEscalated).toBeGreaterThanOrEqual(1);
    const seen = await t.request({
      method: 'GET',
      url: '/v1/fpos/administered_user_with_suspected_death',
      token: await tokenOf(t, administrator),
    });
    expect(seen.json()).toEqual({ userId: member.id });
    expect(await signalSources(administrator, member)).toEqual(['inactivity']);
  });

  it('lets a check-in run out only an answer window after its mail left', async () => {
    const member = await createMember(t, { lastActiveAt: t.clock.now() });
    const administrator = await createMember(t);
    await connectMembers(t, member, administrator, 'family');
    await setAdministrators(t, member, [administrator], 'any_one', 30);
    t.clock.advance(31 * DAY_MS);
    // The relay is down when the check-in is written, and for the next twelve hours.
    const relayDown = {
      ...outboxDepsOf(t.ctx),
      mailer: { send: () => Promise.reject(new Error('connection refused')) },
    };
    expect((await runSuspicionSweep(deathDepsOf(t.ctx))).checkInsSent).toBeGreaterThanOrEqual(1);
    expect((await sendAllPendingMails(relayDown)).failed).toBeGreaterThanOrEqual(1);
    const checkInMailed = () =>
      t.mailbox.some((mail) => mail.to === member.email && mail.link?.includes('/check_in/'));
    expect(checkInMailed()).toBe(false);
    t.clock.advance(DAY_MS / 2);
    await t.sendMail();
    expect(checkInMailed()).toBe(true);

    // Fourteen days after the check-in was written, but not after its mail left.
    t.clock.advance(14 * DAY_MS - DAY_MS / 2 + 60_000);
    await sweep();
    expect((await suspicionOf(member)).userId).toBeNull();
    t.clock.advance(DAY_MS / 2);
    expect((await sweep()).checkInsEscalated).toBeGreaterThanOrEqual(1);
    expect(await signalSources(administrator, member)).toEqual(['inactivity']);
  });
});
