import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../server/domain/accounts/passwords';
import { releaseDepsOf, timecapsuleDepsOf } from '../../server/areaDeps';
import { releaseDueCases } from '../../server/domain/deathDetection/release';
import { isDeathConfirmed } from '../../server/domain/endingnote/deathConfirmation';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { createSessionApi } from '../../src/services/api/session';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { loginFrom, newClient } from './accountsSupport';
import {
  confirmDeath,
  reportSuspicion,
  setAdministrators,
  tokenOf,
  verifyIdentity,
} from './deathDetectionSupport';
import { cookieKeepingFetch } from './httpClientHarness';

/**
 * The way back for a living member whose death was confirmed by mistake: the refused sign-in
 * mails a link; the link with the password restores the account, ends the case, turns the
 * page back, stops what was not sent, tells who was told, and lists what was delivered.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse battery staple';

let t: TestApp;
let origin: string;
beforeAll(async () => {
  t = await createTestApp();
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

const get = async (member: TestMember, url: string) =>
  t.request({ method: 'GET', url, token: await tokenOf(t, member) });
const send = async (member: TestMember, method: 'POST' | 'PUT', url: string, body: unknown) => {
  const response = await t.request({ method, url, token: await tokenOf(t, member), body });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response;
};
const restore = (token: string, password: string) =>
  t.request({ method: 'POST', url: '/v1/account_restoration', body: { token, password } });

async function notificationKinds(member: TestMember): Promise<string[]> {
  const list = await get(member, '/v1/notification/user_notifications');
  return list.json().items.map((item: { kind: string }) => item.kind);
}

async function letterDueAt(letterId: string): Promise<string | null> {
  const result = await t.ctx.database.db.execute(
    sql`select due_at from time_capsule_letters where id = ${letterId}`,
  );
  const row = (result as unknown as { rows: { due_at: Date | string | null }[] }).rows[0];
  return row?.due_at ? new Date(row.due_at).toISOString() : null;
}

/** The link of the newest restoration mail to `email`: its token. */
async function mailedToken(email: string): Promise<string> {
  await t.sendMail();
  const mail = t.mailbox.findLast((m) => m.to === email && m.link?.includes('/restore-account'));
  expect(mail, 'a restoration mail').toBeDefined();
  return new URL(mail!.link!).searchParams.get('token')!;
}

/**
 * A member with a password, one administrator, a friend who reads the note after death and
 * receives a letter at once, a second letter due 30 days after the death, and a stranger.
 * The administrator reports and confirms; the grace period runs out; the first letter goes.
 */
async function releasedByMistake() {
  const member = await createMember(t, {
    lastName: '佐藤',
    firstName: '花子',
    passwordHash: await hashPassword(PASSWORD),
  });
  const watcher = await createMember(t, { lastName: '佐藤', firstName: '一郎' });
  const friend = await createMember(t, { lastName: '鈴木', firstName: '友子' });
  const stranger = await createMember(t, { lastName: '田中', firstName: '三郎' });
  await connectMembers(t, member, watcher, 'family');
  await connectMembers(t, member, friend, 'friend');
  await setAdministrators(t, member, [watcher], 'any_one', null, PASSWORD);
  t.clock.advance(7 * DAY_MS);

  const letter = async (title: string, to: TestMember, delayDays: number) =>
    (
      await send(member, 'POST', '/v1/time_capsule_letter', {
        title,
        body: 'いままでありがとう。',
        recipients: [{ kind: 'member', user_id: to.id }],
        admin_user_ids: [],
        delivery: { rule: 'death', delay_days: delayDays },
      })
    ).json().timeCapsuleLetterId as string;
  await letter('すぐに届く手紙', friend, 0);
  const later = await letter('ひと月後の手紙', watcher, 30);
  const note = `/v1/endingnote/${member.id}`;
  await send(member, 'PUT', `${note}/readers`, {
    user_ids: [friend.id],
    current_password: PASSWORD,
  });
  await send(member, 'PUT', `${note}/sections/message`, {
    version: 0,
    values: { to_family: 'ありがとう' },
  });
  await send(member, 'PUT', `${note}/sections/message/visibility`, {
    visibility: 'readers_after_death',
    current_password: PASSWORD,
  });

  expect((await reportSuspicion(t, watcher, member)).statusCode).toBe(201);
  const keys = await verifyIdentity(t, watcher);
  expect((await confirmDeath(t, watcher, keys, member)).json().state).toBe('grace');
  t.clock.advance(7 * DAY_MS + 60_000);
  expect(await releaseDueCases(releaseDepsOf(t.ctx))).toBe(1);
  await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
  return { member, watcher, friend, stranger, later };
}

describe('restoring an account whose death was confirmed by mistake', () => {
  it('mails a link at the refused sign-in; the link and the password restore everything once', async () => {
    const { member, watcher, friend, stranger, later } = await releasedByMistake();
    const releasedAt = t.clock.now().toISOString();
    expect(await notificationKinds(friend)).toContain('death_confirmed');

    // The refused sign-in (right password) mails the way back; a wrong password mails nothing.
    const wrong = await loginFrom(t, newClient(), member.email, 'not the password');
    expect(wrong.statusCode).toBe(401);
    await t.sendMail();
    expect(
      t.mailbox.filter((m) => m.to === member.email && m.link?.includes('/restore-account')),
    ).toHaveLength(0);
    const refused = await loginFrom(t, newClient(), member.email, PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('account_memorialized');
    const expiring = await mailedToken(member.email);
    const mail = t.mailbox.findLast((m) => m.to === member.email)!;
    // The date of the release, in Asia/Tokyo, is in the mail.
    const tokyoDate = new Intl.DateTimeFormat('ja-JP', {
      timeZone: 'Asia/Tokyo',
      dateStyle: 'long',
    }).format(new Date(releasedAt));
    expect(mail.text).toContain(tokyoDate);

    // A link lives a day.
    t.clock.advance(DAY_MS + 60_000);
    expect((await restore(expiring, PASSWORD)).json().code).toBe('restoration_link_invalid');
    expect((await loginFrom(t, newClient(), member.email, PASSWORD)).statusCode).toBe(403);
    const token = await mailedToken(member.email);
    expect(token).not.toBe(expiring);

    // A wrong password restores nothing.
    const wrongPassword = await restore(token, 'not the password');
    expect(wrongPassword.statusCode).toBe(422);
    expect(wrongPassword.json().errors).toEqual([
      { field: 'password', code: 'password_incorrect' },
    ]);
    expect((await get(watcher, `/v1/fpos/death_case/${member.id}`)).json().state).toBe('released');

    const restored = await restore(token, PASSWORD);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual({
      restoredAt: t.clock.now().toISOString(),
      releasedAt,
      lettersStopped: 1,
      delivered: {
        letters: [{ title: 'すぐに届く手紙', deliveredAt: releasedAt, recipients: ['鈴木 友子'] }],
        endingNoteSections: [{ section: 'message', readers: ['鈴木 友子'] }],
        notified: ['佐藤 一郎', '鈴木 友子'],
        archive: null,
      },
      // The default choices: the mourning view ended; no deletion or archive to undo.
      undone: { page: true, accountDeletionCancelled: false, archiveWithdrawn: false },
    });

    // The link works once.
    const again = await restore(token, PASSWORD);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('restoration_link_invalid');

    // The case is over and recorded; the page is no longer in mourning; the note closes.
    const theCase = await get(watcher, `/v1/fpos/death_case/${member.id}`);
    expect(theCase.json().state).toBe('alive');
    const log = await get(watcher, `/v1/fpos/death_audit_log/${member.id}`);
    expect(log.json().items.at(-1)).toMatchObject({
      action: 'restored',
      actorUserId: member.id,
      detail: expect.objectContaining({ lettersStopped: 1, lettersDelivered: 1, told: 2 }),
    });
    const page = await get(watcher, `/v1/memorial_page/${member.memorialPageId}`);
    expect(page.json().mourningSince).toBeNull();
    expect(page.json().deathDate ?? null).toBeNull();
    expect(await isDeathConfirmed(t.ctx.database.db, member.id)).toBe(false);
    const section = await get(friend, `/v1/endingnote/${member.id}/sections/message`);
    expect(section.statusCode).not.toBe(200);

    // The letter not sent yet is stopped: a month later nothing reaches the administrator.
    expect(await letterDueAt(later)).toBeNull();
    t.clock.advance(40 * DAY_MS);
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    const received = await get(watcher, '/v1/time_capsule_letter/get_received_letters');
    expect(received.json().map((l: { title: string }) => l.title)).not.toContain('ひと月後の手紙');

    // The administrator and the friend told of the death are told (in-app and mail); nobody else.
    expect(await notificationKinds(watcher)).toContain('death_restored');
    // The earlier alarms about the member read as withdrawn.
    const notices = (await get(watcher, '/v1/notification/user_notifications')).json().items as {
      kind: string;
      payload: { cancelledAt?: string };
    }[];
    const alarms = notices.filter((n) => ['death_suspected', 'death_confirmed'].includes(n.kind));
    expect(alarms.map((n) => n.kind).sort()).toEqual(['death_confirmed', 'death_suspected']);
    expect(alarms.every((n) => typeof n.payload.cancelledAt === 'string')).toBe(true);
    expect(await notificationKinds(friend)).toContain('death_restored');
    expect(await notificationKinds(stranger)).not.toContain('death_restored');
    for (const told of [watcher, friend]) {
      expect(t.mailbox.filter((m) => m.to === told.email).at(-1)?.text).toContain('佐藤 花子');
    }
    expect(t.mailbox.some((m) => m.to === stranger.email)).toBe(false);

    // The member's own mail records it.
    expect(t.mailbox.filter((m) => m.to === member.email).at(-1)?.subject).toBe(
      '【しのぶ】アカウントを元に戻しました',
    );

    // The member signs in again.
    expect((await loginFrom(t, newClient(), member.email, PASSWORD)).statusCode).toBe(200);
  });

  it('tells the sign-in screen the code and when, instead of an unexpected error', async () => {
    const { member } = await releasedByMistake();
    const releasedAt = t.clock.now().toISOString();
    const session = createSessionApi({ origin, fetchImpl: cookieKeepingFetch() });
    const result = await session.signInWithCredentials(
      { username: member.email, password: PASSWORD },
      '/dashboard',
    );
    expect(result).toMatchObject({
      ok: false,
      error: 'account_memorialized',
      memorializedSince: releasedAt,
    });
    // A link was mailed there too.
    expect(await mailedToken(member.email)).toEqual(expect.any(String));
  });

  it('spends a link after five wrong passwords', async () => {
    const { member } = await releasedByMistake();
    await loginFrom(t, newClient(), member.email, PASSWORD);
    const token = await mailedToken(member.email);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await restore(token, `guess ${attempt}`)).statusCode).toBe(422);
    }
    expect((await restore(token, PASSWORD)).json().code).toBe('restoration_link_invalid');
  });

  it('refuses unknown links and bad bodies', async () => {
    expect((await restore('x'.repeat(43), PASSWORD)).json().code).toBe('restoration_link_invalid');
    const empty = await t.request({ method: 'POST', url: '/v1/account_restoration', body: {} });
    expect(empty.statusCode).toBe(422);
  });
});
