import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  condolences,
  connections,
  memorialPageMembers,
  memorialPageProfiles,
  memorialPages,
  users,
  type Privacy,
} from '../../server/db/schema';
import { notify } from '../../server/domain/social/notifications';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import { jpegPhoto, tryUpload, upload } from './memorialSupport';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const get = async (who: TestMember, url: string) => {
  const response = await t.request({ method: 'GET', url, token: who.token });
  expect(response.statusCode).toBe(200);
  return response.json();
};
const recordDeath = (member: TestMember, deathDate: string, privacy: Privacy = 'connections') =>
  t.ctx.database.db
    .update(memorialPageProfiles)
    .set({ deathDate, privacy })
    .where(eq(memorialPageProfiles.id, member.memorialPageId));

describe('dashboard', () => {
  it('answers the own page, unread count, recent notifications and connections’ news', async () => {
    const db = t.ctx.database.db;
    const member = await createMember(t);
    const friend = await createMember(t, { lastName: '友田' });
    const oldFriend = await createMember(t);
    const longAgo = new Date(t.clock.now().getTime() - 40 * 24 * 60 * 60 * 1000);
    // A connection made now is news; one made 40 days ago, whose page has not changed since, is not.
    await db.insert(connections).values([
      {
        userId: member.id,
        otherUserId: friend.id,
        relationship: 'friend',
        createdAt: t.clock.now(),
      },
      {
        userId: friend.id,
        otherUserId: member.id,
        relationship: 'friend',
        createdAt: t.clock.now(),
      },
      { userId: member.id, otherUserId: oldFriend.id, relationship: 'friend', createdAt: longAgo },
      { userId: oldFriend.id, otherUserId: member.id, relationship: 'friend', createdAt: longAgo },
    ]);
    await db
      .update(memorialPages)
      .set({ createdAt: longAgo, updatedAt: longAgo })
      .where(eq(memorialPages.id, oldFriend.memorialPageId));
    await notify(
      db,
      member.id,
      'admin_added',
      { memorialPageId: friend.memorialPageId, pageName: '友田 太郎' },
      t.clock.now(),
    );

    const summary = await get(member, '/v1/dashboard');
    expect(summary).toMatchObject({
      memorialPageId: member.memorialPageId,
      unreadCount: 1,
      recentNotifications: [{ kind: 'admin_added' }],
      connectionsNews: [{ kind: 'connected', member: { userId: friend.id, lastName: '友田' } }],
    });
    expect(summary.connectionsNews).toHaveLength(1);

    // The old friend's page changes: that is news again.
    await db
      .update(memorialPages)
      .set({ updatedAt: t.clock.now() })
      .where(eq(memorialPages.id, oldFriend.memorialPageId));
    const later = await get(member, '/v1/dashboard');
    expect(later.connectionsNews.map((news: { kind: string }) => news.kind).sort()).toEqual([
      'connected',
      'page_updated',
    ]);
  });
});

describe('mourning tab', () => {
  it('lists connections who passed, pages one belongs to and pets, with anniversaries and condolences', async () => {
    const member = await createMember(t);
    const passed = await createMember(t, { lastName: '故人' });
    const hidden = await createMember(t);
    const stranger = await createMember(t);
    const alive = await createMember(t);
    await connectMembers(t, member, passed);
    await connectMembers(t, member, hidden);
    await connectMembers(t, member, alive);
    // The clock reads 2026-11-22 in Japan. 四十九日 of a death on 2026-10-20 falls on 2026-12-07, within the coming 60 days.
    await recordDeath(passed, '2026-10-20');
    await recordDeath(hidden, '2026-10-01', 'admins');
    await recordDeath(stranger, '2026-10-01');

    const db = t.ctx.database.db;
    const [pet] = await db
      .insert(memorialPages)
      .values({ type: 'pet', lastName: '', firstName: 'ポチ', createdBy: member.id })
      .returning({ id: memorialPages.id });
    await db
      .insert(memorialPageMembers)
      .values({ memorialPageId: pet!.id, userId: member.id, role: 'admin' });
    await db.insert(condolences).values([
      {
        memorialPageId: passed.memorialPageId,
        authorUserId: alive.id,
        body: 'approved',
        status: 'approved',
      },
      {
        memorialPageId: passed.memorialPageId,
        authorUserId: alive.id,
        body: 'waiting',
        status: 'pending',
      },
      { memorialPageId: pet!.id, authorUserId: alive.id, body: 'for the pet', status: 'pending' },
    ]);

    const tab = await get(member, '/v1/mourning');
    expect(tab.pages.map((page: { memorialPageId: string }) => page.memorialPageId)).toEqual([
      passed.memorialPageId,
      pet!.id,
    ]);
    expect(tab.pages[0]).toMatchObject({
      type: 'self',
      lastName: '故人',
      deathDate: '2026-10-20',
      role: null,
    });
    expect(tab.pages[1]).toMatchObject({ type: 'pet', role: 'admin', photoUrl: null });
    expect(tab.upcomingAnniversaries).toEqual([
      {
        memorialPageId: passed.memorialPageId,
        lastName: '故人',
        firstName: '太郎',
        code: 'shijukunichi',
        date: '2026-12-07',
      },
    ]);
    expect(tab.recentCondolences.map((c: { body: string }) => c.body).sort()).toEqual([
      'approved',
      'for the pet',
    ]);
  });

  it('is empty for a member with nobody to remember', async () => {
    const member = await createMember(t);
    expect(await get(member, '/v1/mourning')).toEqual({
      pages: [],
      upcomingAnniversaries: [],
      recentCondolences: [],
    });
  });
});

describe('my page profile', () => {
  it('reads and updates the profile, and search follows the new name', async () => {
    const member = await createMember(t);
    const searcher = await createMember(t);
    const profile = await get(member, '/v1/mypage/profile');
    expect(profile).toMatchObject({
      userId: member.id,
      lastName: '山田',
      searchable: true,
      iconUrl: null,
    });

    const icon = await upload(t, await jpegPhoto(64, 64), { token: member.token });
    const updated = await t.request({
      method: 'PATCH',
      url: '/v1/mypage/profile',
      token: member.token,
      body: {
        last_name: '鈴木',
        last_name_kana: 'すずき',
        address: '東京都',
        birthdate: '1950-04-01',
        sex_code: 2,
        icon_name: icon,
      },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      lastName: '鈴木',
      firstName: '太郎',
      lastNameKana: 'すずき',
      address: '東京都',
      birthdate: '1950-04-01',
      sexCode: 2,
      iconUrl: expect.stringContaining(icon),
    });
    const [row] = await t.ctx.database.db
      .select({ nameReading: users.nameReading })
      .from(users)
      .where(eq(users.id, member.id));
    expect(row!.nameReading).toBe('すずきたろう鈴木太郎');
    const found = await get(searcher, `/v1/user_search?q=${encodeURIComponent('スズキ')}`);
    expect(found.items.map((item: { userId: string }) => item.userId)).toEqual([member.id]);

    await t.request({
      method: 'PATCH',
      url: '/v1/mypage/profile',
      token: member.token,
      body: { searchable: false },
    });
    expect(
      (await get(searcher, `/v1/user_search?q=${encodeURIComponent('すずき')}`)).items,
    ).toEqual([]);
  });

  it('answers 422 per field for bad values', async () => {
    const member = await createMember(t);
    const response = await t.request({
      method: 'PATCH',
      url: '/v1/mypage/profile',
      token: member.token,
      body: {
        last_name_kana: 'スズキ',
        address: 'Atlantis',
        birthdate: '2999-01-01',
        searchable: 'yes',
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(
      expect.arrayContaining([
        { field: 'last_name_kana', code: 'kana_hiragana_only' },
        { field: 'address', code: 'prefecture_invalid' },
        { field: 'birthdate', code: 'birthdate_in_future' },
        { field: 'searchable', code: 'boolean_invalid' },
      ]),
    );
    const badIcon = await t.request({
      method: 'PATCH',
      url: '/v1/mypage/profile',
      token: member.token,
      body: { icon_name: '../../etc/passwd' },
    });
    expect(badIcon.json().errors).toEqual([{ field: 'icon_name', code: 'icon_name_invalid' }]);
    // Bytes that are no image are refused when they arrive, and never become an icon.
    const notAnImage = await tryUpload(t, Buffer.from('<html>hello</html>'), {
      token: member.token,
      contentType: 'text/html',
    });
    expect(notAnImage.put.statusCode).toBe(415);
    const refused = await t.request({
      method: 'PATCH',
      url: '/v1/mypage/profile',
      token: member.token,
      body: { icon_name: notAnImage.imageName },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([{ field: 'icon_name', code: 'upload_missing' }]);
    expect((await get(member, '/v1/mypage/profile')).iconName).toBeNull();
  });
});
