import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upcomingAnniversaries } from '../../server/domain/memorial/upcoming';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let admin: TestMember;
let coAdmin: TestMember;
let friendOfAdmin: TestMember;
let friendOfCoAdmin: TestMember;
let stranger: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createMember(t);
  coAdmin = await createMember(t);
  friendOfAdmin = await createMember(t);
  friendOfCoAdmin = await createMember(t);
  stranger = await createMember(t);
  await connectMembers(t, admin, friendOfAdmin);
  await connectMembers(t, coAdmin, friendOfCoAdmin);
});
afterAll(async () => {
  await t.close();
});

async function pageWithDeath(deathDate: string, privacy = 'connections'): Promise<string> {
  const created = await t.request({
    method: 'POST',
    url: '/v1/memorial_page',
    token: admin.token,
    body: {
      type: 'other',
      last_name: '佐藤',
      first_name: '一郎',
      last_name_kana: 'さとう',
      first_name_kana: 'いちろう',
      death_date: deathDate,
      privacy,
    },
  });
  const pageId = created.json().memorialPageId as string;
  await t.request({
    method: 'POST',
    url: `/v1/memorial_page/add_memorial_page_admin/${pageId}/${coAdmin.id}`,
    token: admin.token,
  });
  return pageId;
}

describe('upcomingAnniversaries', () => {
  it('finds the services of a window with the admins and their connections to notify', async () => {
    await connectMembers(t, admin, coAdmin);
    const recent = await pageWithDeath('2026-11-10');
    const old = await pageWithDeath('1994-12-01');
    const secret = await pageWithDeath('2024-12-05', 'admins');
    await pageWithDeath('2026-06-01');

    const due = await upcomingAnniversaries(t.ctx.database.db, '2026-11-16', '2026-12-05');
    const byPage = Object.fromEntries(due.map((item) => [item.memorialPageId, item]));
    expect(due).toHaveLength(3);
    expect(byPage[recent]!.anniversary).toEqual({ code: 'shonanoka', date: '2026-11-16' });
    expect(byPage[old]!.anniversary).toEqual({ code: 'sanjusankaiki', date: '2026-12-01' });
    expect(byPage[secret]!.anniversary).toEqual({ code: 'sankaiki', date: '2026-12-05' });

    const everyoneClose = [admin, coAdmin, friendOfAdmin, friendOfCoAdmin].map((m) => m.id).sort();
    expect(byPage[recent]!.notifyUserIds).toEqual(everyoneClose);
    expect(byPage[recent]!.notifyUserIds).not.toContain(stranger.id);
    expect(byPage[secret]!.notifyUserIds).toEqual([admin.id, coAdmin.id].sort());
  });

  it('answers nothing for a window without services', async () => {
    expect(await upcomingAnniversaries(t.ctx.database.db, '2030-01-02', '2030-01-03')).toEqual([]);
  });
});
