import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { memorialPageMembers } from '../../server/db/schema';
import { hashPassword } from '../../server/domain/accounts/passwords';
import { runDataExports } from '../../server/domain/dataExport/requests';
import { deleteDueAccounts } from '../../server/domain/deathDetection/afterDeath';
import { releaseDueCases } from '../../server/domain/deathDetection/release';
import { dataExportDepsOf, releaseDepsOf } from '../../server/areaDeps';
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

/**
 * The member's choices for after their death: set with a fresh proof and a notice, carried
 * out by the release (page, archive to the chosen administrator, deletion N days later) and
 * undone by a restoration where they can be, with the rest answered.
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

const call = async (
  member: TestMember | null,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
) =>
  t.request({
    method,
    url,
    ...(member ? { token: await tokenOf(t, member) } : {}),
    ...(body === undefined ? {} : { body }),
  });

interface Choices {
  page: 'mourning' | 'unchanged' | 'hidden';
  account: 'memorial' | 'delete';
  delete_after_days: number | null;
  archive_recipient_user_id: string | null;
}

const saveChoices = (
  member: TestMember,
  administrators: TestMember[],
  afterDeath: Choices,
  password?: string,
) =>
  call(member, 'PUT', '/v1/fpos/death_settings', {
    rule: 'any_one',
    administrator_user_ids: administrators.map((a) => a.id),
    check_in_period_days: null,
    after_death: afterDeath,
    ...(password ? { current_password: password } : {}),
  });

const deletionDeps = () => ({ db: t.ctx.database.db, clock: t.clock, store: t.ctx.store });
const sweepDeletions = () => deleteDueAccounts(releaseDepsOf(t.ctx), deletionDeps());
const buildArchives = () => runDataExports(dataExportDepsOf(t.ctx));

async function notificationKinds(member: TestMember): Promise<string[]> {
  const list = await call(member, 'GET', '/v1/notification/user_notifications');
  return list.json().items.map((item: { kind: string }) => item.kind);
}

async function logActions(reader: TestMember, member: TestMember): Promise<string[]> {
  const log = await call(reader, 'GET', `/v1/fpos/death_audit_log/${member.id}`);
  expect(log.statusCode, log.body).toBe(200);
  return log.json().items.map((item: { action: string }) => item.action);
}

async function statusOf(member: TestMember): Promise<string> {
  const result = await t.ctx.database.db.execute(
    sql`select status from users where id = ${member.id}`,
  );
  return (result as unknown as { rows: { status: string }[] }).rows[0]!.status;
}

/** A member with a password, a watcher (administrator), a second administrator and a friend. */
async function family(lastName: string) {
  const member = await createMember(t, {
    lastName,
    firstName: '花子',
    passwordHash: await hashPassword(PASSWORD),
  });
  const watcher = await createMember(t, { lastName, firstName: '一郎' });
  const other = await createMember(t, { lastName, firstName: '次郎' });
  const friend = await createMember(t, { lastName: '鈴木', firstName: '友子' });
  await connectMembers(t, member, watcher, 'family');
  await connectMembers(t, member, other, 'family');
  await connectMembers(t, member, friend, 'friend');
  await setAdministrators(t, member, [watcher, other], 'any_one', null, PASSWORD);
  return { member, watcher, other, friend };
}

/** The watcher reports and confirms; the grace period runs out; the release job runs. */
async function release(member: TestMember, watcher: TestMember) {
  // An administrator may confirm a week after being named.
  t.clock.advance(7 * DAY_MS);
  expect((await reportSuspicion(t, watcher, member)).statusCode).toBe(201);
  const keys = await verifyIdentity(t, watcher);
  expect((await confirmDeath(t, watcher, keys, member)).json().state).toBe('grace');
  t.clock.advance(7 * DAY_MS + 60_000);
  expect(await releaseDueCases(releaseDepsOf(t.ctx))).toBeGreaterThanOrEqual(1);
}

describe('setting the choices for after one’s death', () => {
  it('answers today’s behaviour by default, needs a fresh proof to change, and sends the notice', async () => {
    const { member, watcher, other } = await family('石井');
    const read = await call(member, 'GET', '/v1/fpos/death_settings');
    expect(read.json().afterDeath).toEqual({
      page: 'mourning',
      account: 'memorial',
      deleteAfterDays: null,
      archiveRecipientUserId: null,
    });
    const wanted: Choices = {
      page: 'unchanged',
      account: 'delete',
      delete_after_days: 30,
      archive_recipient_user_id: watcher.id,
    };

    // Without the password: refused, nothing saved.
    const bare = await saveChoices(member, [watcher, other], wanted);
    expect(bare.statusCode).toBe(403);
    expect(bare.json().code).toBe('reauthentication_required');
    expect((await call(member, 'GET', '/v1/fpos/death_settings')).json().afterDeath.page).toBe(
      'mourning',
    );

    // Out-of-range days and a recipient who is no administrator are refused.
    const tooSoon = await saveChoices(
      member,
      [watcher, other],
      { ...wanted, delete_after_days: 7 },
      PASSWORD,
    );
    expect(tooSoon.statusCode).toBe(422);
    expect(tooSoon.json().errors).toContainEqual({
      field: 'after_death.delete_after_days',
      code: 'out_of_range',
    });
    const notNamed = await saveChoices(member, [other], wanted, PASSWORD);
    expect(notNamed.statusCode).toBe(422);
    expect(notNamed.json().errors).toContainEqual({
      field: 'after_death.archive_recipient_user_id',
      code: 'not_administrator',
    });

    const mailsBefore = t.mailbox.length;
    const saved = await saveChoices(member, [watcher, other], wanted, PASSWORD);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().afterDeath).toEqual({
      page: 'unchanged',
      account: 'delete',
      deleteAfterDays: 30,
      archiveRecipientUserId: watcher.id,
    });
    await t.sendMail();
    const notice = t.mailbox.slice(mailsBefore).find((m) => m.to === member.email);
    expect(notice?.subject).toBe('【しのぶ】アカウントの大切な設定が変更されました');
    expect(notice?.text).toContain('ご逝去のあとの追悼ページ・アカウント・データの扱い');
    expect(notice?.link).toContain('/mypage/change-report');

    // Saving the same choices again asks no proof and sends no notice.
    const again = await call(member, 'PUT', '/v1/fpos/death_settings', {
      rule: 'any_one',
      administrator_user_ids: [watcher.id, other.id],
      check_in_period_days: 90,
      after_death: wanted,
    });
    expect(again.statusCode, again.body).toBe(200);

    // Dropping the recipient from the administrators without naming choices drops the archive.
    const dropped = await call(member, 'PUT', '/v1/fpos/death_settings', {
      rule: 'any_one',
      administrator_user_ids: [other.id],
      check_in_period_days: 90,
      current_password: PASSWORD,
    });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json().afterDeath.archiveRecipientUserId).toBeNull();
    expect(await logActions(member, member)).toEqual(
      expect.arrayContaining(['after_death_changed', 'administrators_changed']),
    );
  });
});

describe('the release carries the choices out', () => {
  it('turns the page to mourning, leaves it unchanged or hides it, as each member chose', async () => {
    const pages = new Map<string, Awaited<ReturnType<typeof family>>>();
    for (const [page, lastName] of [
      ['mourning', '森'],
      ['unchanged', '林'],
      ['hidden', '岡'],
    ] as const) {
      const people = await family(lastName);
      const saved = await saveChoices(
        people.member,
        [people.watcher, people.other],
        { page, account: 'memorial', delete_after_days: null, archive_recipient_user_id: null },
        PASSWORD,
      );
      expect(saved.statusCode, saved.body).toBe(200);
      pages.set(page, people);
    }
    t.clock.advance(7 * DAY_MS);
    for (const people of pages.values()) {
      expect((await reportSuspicion(t, people.watcher, people.member)).statusCode).toBe(201);
      const keys = await verifyIdentity(t, people.watcher);
      expect((await confirmDeath(t, people.watcher, keys, people.member)).statusCode).toBe(201);
    }
    t.clock.advance(7 * DAY_MS + 60_000);
    expect(await releaseDueCases(releaseDepsOf(t.ctx))).toBe(3);

    const mourning = pages.get('mourning')!;
    const seen = await call(
      mourning.friend,
      'GET',
      `/v1/memorial_page/${mourning.member.memorialPageId}`,
    );
    expect(seen.statusCode).toBe(200);
    expect(seen.json().mourningSince).toBe(t.clock.now().toISOString());

    const unchanged = pages.get('unchanged')!;
    const kept = await call(
      unchanged.friend,
      'GET',
      `/v1/memorial_page/${unchanged.member.memorialPageId}`,
    );
    expect(kept.statusCode).toBe(200);
    expect(kept.json().mourningSince).toBeNull();
    expect(kept.json().deathDate ?? null).toBeNull();
    // Left as it was, the page is still a departed member's: its co-admins may keep it.
    await t.ctx.database.db.insert(memorialPageMembers).values({
      memorialPageId: unchanged.member.memorialPageId,
      userId: unchanged.friend.id,
      role: 'admin',
    });
    const keepsakes = await call(
      unchanged.friend,
      'GET',
      `/v1/memorial_page/${unchanged.member.memorialPageId}/keepsakes`,
    );
    expect(keepsakes.json().available).toBe(true);

    const hidden = pages.get('hidden')!;
    const url = `/v1/memorial_page/${hidden.member.memorialPageId}`;
    const visitor = await call(hidden.friend, 'GET', url);
    expect(visitor.statusCode).toBe(404);
    expect(visitor.json().detail).toBeDefined();
    expect((await call(hidden.watcher, 'GET', url)).statusCode).toBe(404);
    expect((await call(null, 'GET', url)).statusCode).toBe(401);

    // Each step is in the case's log; the administrators are told what was done.
    for (const [page, people] of pages) {
      const actions = await logActions(people.watcher, people.member);
      expect(actions.slice(-3)).toEqual(['released', 'page_carried_out', 'administrators_told']);
      const log = await call(people.watcher, 'GET', `/v1/fpos/death_audit_log/${people.member.id}`);
      const step = log
        .json()
        .items.find((item: { action: string }) => item.action === 'page_carried_out');
      expect(step.detail.page).toBe(page);
      expect(await notificationKinds(people.other)).toContain('death_choices_carried_out');
    }
    await t.sendMail();
    const told = t.mailbox.findLast((m) => m.to === hidden.other.email);
    expect(told?.subject).toBe(
      '【しのぶ】岡 花子様のご意向に沿って、ページとアカウントを整えました',
    );
    expect(told?.text).toContain('見えないようにしました');
    expect(told?.text).toContain('追悼のためにお預かりしています');
  });

  it('hands the archive to the chosen administrator only, and deletes the account on its day', async () => {
    const { member, watcher, other, friend } = await family('村上');
    const saved = await saveChoices(
      member,
      [watcher, other],
      {
        page: 'mourning',
        account: 'delete',
        delete_after_days: 30,
        archive_recipient_user_id: watcher.id,
      },
      PASSWORD,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    // The member's own archive of the day before does not count as the watcher's.
    await release(member, watcher);
    const releasedAt = t.clock.now();

    expect((await buildArchives()).built).toBe(1);
    expect(await notificationKinds(watcher)).toContain('death_archive_ready');
    expect(await notificationKinds(other)).not.toContain('death_archive_ready');
    await t.sendMail();
    const mail = t.mailbox.findLast((m) => m.to === watcher.email);
    expect(mail?.subject).toBe('【しのぶ】村上 花子様のデータをお渡しします');

    const entrusted = await call(watcher, 'GET', '/v1/data_exports/entrusted');
    expect(entrusted.json().archives).toEqual([
      expect.objectContaining({
        status: 'ready',
        member: { userId: member.id, lastName: '村上', firstName: '花子' },
      }),
    ]);
    const archiveId = entrusted.json().archives[0].id as string;
    expect((await call(other, 'GET', '/v1/data_exports/entrusted')).json().archives).toEqual([]);
    // Not the watcher's own data: their own list stays empty.
    expect((await call(watcher, 'GET', '/v1/data_exports')).json().exports).toEqual([]);

    const stolen = await call(other, 'POST', `/v1/data_exports/${archiveId}/download_link`);
    expect(stolen.statusCode).toBe(404);
    const link = await call(watcher, 'POST', `/v1/data_exports/${archiveId}/download_link`);
    expect(link.statusCode, link.body).toBe(201);
    const path = new URL(link.json().url).pathname + new URL(link.json().url).search;
    const zip = await call(null, 'GET', path);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const twice = await call(null, 'GET', path);
    expect(twice.statusCode).toBe(400);

    // Not before the 30th day; on it, the sweep deletes the account and keeps the page.
    t.clock.set(new Date(releasedAt.getTime() + 30 * DAY_MS - 60_000));
    expect(await sweepDeletions()).toBe(0);
    expect(await statusOf(member)).toBe('active');
    t.clock.advance(2 * 60_000);
    expect(await sweepDeletions()).toBe(1);
    expect(await sweepDeletions()).toBe(0);
    expect(await statusOf(member)).toBe('deleted');
    const page = await call(friend, 'GET', `/v1/memorial_page/${member.memorialPageId}`);
    expect(page.statusCode).toBe(200);
    expect(page.json().mourningSince).toBe(releasedAt.toISOString());
    expect(await notificationKinds(other)).toContain('death_account_deleted');
    expect(await logActions(watcher, member)).toEqual([
      'administrators_changed',
      'after_death_changed',
      'suspicion_raised',
      'confirmation_recorded',
      'grace_started',
      'released',
      'page_carried_out',
      'account_deletion_scheduled',
      'archive_requested',
      'administrators_told',
      'archive_ready',
      'account_deleted',
    ]);
    await t.sendMail();
    const deleted = t.mailbox.findLast((m) => m.to === other.email);
    expect(deleted?.subject).toBe('【しのぶ】村上 花子様のアカウントを解約しました');
    expect(deleted?.text).toContain('メモリアルページは、選ばれたとおりに残っています');
  });
});

describe('a restoration before the day of deletion', () => {
  it('cancels the deletion, shows the hidden page again and lists the archive already downloaded', async () => {
    const { member, watcher, other, friend } = await family('長谷川');
    const saved = await saveChoices(
      member,
      [watcher, other],
      {
        page: 'hidden',
        account: 'delete',
        delete_after_days: 30,
        archive_recipient_user_id: watcher.id,
      },
      PASSWORD,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    await release(member, watcher);
    const url = `/v1/memorial_page/${member.memorialPageId}`;
    expect((await call(friend, 'GET', url)).statusCode).toBe(404);
    expect((await buildArchives()).built).toBe(1);
    const archiveId = (await call(watcher, 'GET', '/v1/data_exports/entrusted')).json().archives[0]
      .id as string;
    const link = await call(watcher, 'POST', `/v1/data_exports/${archiveId}/download_link`);
    const downloadUrl = new URL(link.json().url);
    expect((await call(null, 'GET', downloadUrl.pathname + downloadUrl.search)).statusCode).toBe(
      200,
    );
    const downloadedAt = t.clock.now().toISOString();

    t.clock.advance(10 * DAY_MS);
    expect((await loginFrom(t, newClient(), member.email, PASSWORD)).statusCode).toBe(403);
    await t.sendMail();
    const mail = t.mailbox.findLast(
      (m) => m.to === member.email && m.link?.includes('/restore-account'),
    );
    const token = new URL(mail!.link!).searchParams.get('token')!;
    const restored = await t.request({
      method: 'POST',
      url: '/v1/account_restoration',
      body: { token, password: PASSWORD },
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().undone).toEqual({
      page: true,
      accountDeletionCancelled: true,
      archiveWithdrawn: false,
    });
    expect(restored.json().delivered.archive).toEqual({ recipient: '長谷川 一郎', downloadedAt });

    // The page shows again; the archive is no longer offered; the day passes without deletion.
    expect((await call(friend, 'GET', url)).statusCode).toBe(200);
    expect((await call(watcher, 'GET', '/v1/data_exports/entrusted')).json().archives).toEqual([
      expect.objectContaining({ status: 'withdrawn' }),
    ]);
    t.clock.advance(30 * DAY_MS);
    expect(await sweepDeletions()).toBe(0);
    expect(await statusOf(member)).toBe('active');
    const log = await call(watcher, 'GET', `/v1/fpos/death_audit_log/${member.id}`);
    expect(log.json().items.at(-1)).toMatchObject({
      action: 'restored',
      detail: expect.objectContaining({
        pageRestored: true,
        accountDeletionCancelled: true,
        archiveWithdrawn: false,
        archiveDownloaded: true,
      }),
    });
  });

  it('withdraws an archive nobody downloaded yet and ends the mourning view', async () => {
    const { member, watcher, other, friend } = await family('小林');
    const saved = await saveChoices(
      member,
      [watcher, other],
      {
        page: 'mourning',
        account: 'memorial',
        delete_after_days: null,
        archive_recipient_user_id: other.id,
      },
      PASSWORD,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    await release(member, watcher);
    expect((await buildArchives()).built).toBe(1);
    expect((await loginFrom(t, newClient(), member.email, PASSWORD)).statusCode).toBe(403);
    await t.sendMail();
    const mail = t.mailbox.findLast(
      (m) => m.to === member.email && m.link?.includes('/restore-account'),
    );
    const token = new URL(mail!.link!).searchParams.get('token')!;
    const restored = await t.request({
      method: 'POST',
      url: '/v1/account_restoration',
      body: { token, password: PASSWORD },
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().undone).toEqual({
      page: true,
      accountDeletionCancelled: false,
      archiveWithdrawn: true,
    });
    expect(restored.json().delivered.archive).toBeNull();
    const archive = (await call(other, 'GET', '/v1/data_exports/entrusted')).json().archives[0];
    expect(archive.status).toBe('withdrawn');
    const link = await call(other, 'POST', `/v1/data_exports/${archive.id}/download_link`);
    expect(link.statusCode).toBe(409);
    const page = await call(friend, 'GET', `/v1/memorial_page/${member.memorialPageId}`);
    expect(page.json().mourningSince).toBeNull();
  });
});
