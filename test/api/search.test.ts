import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { nameReadingOf, type NameParts } from '../../contract/rules/nameReading';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let searcher: TestMember;
const members: Record<string, TestMember> = {};

/** A member as registration writes one: names, kana and the reading computed from them. */
const memberNamed = (name: NameParts, fields: Partial<typeof users.$inferInsert> = {}) =>
  createMember(t, { ...name, nameReading: nameReadingOf(name), ...fields });

beforeAll(async () => {
  t = await createTestApp();
  searcher = await memberNamed({
    lastName: '検索',
    firstName: '者',
    lastNameKana: 'けんさく',
    firstNameKana: 'しゃ',
  });
  members.yamadaTaro = await memberNamed(
    { lastName: '山田', firstName: '太郎', lastNameKana: 'やまだ', firstNameKana: 'たろう' },
    { iconName: 'icons/abcdefghijklmnop1234.png' },
  );
  members.yamadaHanako = await memberNamed({
    lastName: '山田',
    firstName: '花子',
    lastNameKana: 'やまだ',
    firstNameKana: 'はなこ',
  });
  members.komiyama = await memberNamed({
    lastName: '小宮山',
    firstName: '一郎',
    lastNameKana: 'こみやま',
    firstNameKana: 'いちろう',
  });
  members.latin = await memberNamed({
    lastName: 'Smith',
    firstName: 'Anna',
    lastNameKana: 'すみす',
    firstNameKana: 'あんな',
  });
  members.hidden = await memberNamed(
    { lastName: '山田', firstName: '隠子', lastNameKana: 'やまだ', firstNameKana: 'かくこ' },
    { searchable: false },
  );
  members.inactive = await memberNamed(
    { lastName: '山田', firstName: '未子', lastNameKana: 'やまだ', firstNameKana: 'みこ' },
    { status: 'inactive' },
  );
});
afterAll(async () => {
  await t.close();
});

interface Found {
  userId: string;
  lastName: string;
  firstName: string;
  iconUrl: string | null;
  connection: string;
  requestId: string | null;
}

async function search(q: string, extra = '') {
  const response = await t.request({
    method: 'GET',
    url: `/v1/user_search?q=${encodeURIComponent(q)}${extra}`,
    token: searcher.token,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as { items: Found[]; nextCursor: string | null };
}
const idsFor = async (q: string) => (await search(q)).items.map((item) => item.userId);

describe('user search', () => {
  it('finds a member by the whole name in kanji and in hiragana', async () => {
    expect(await idsFor('山田太郎')).toEqual([members.yamadaTaro!.id]);
    expect(await idsFor('やまだたろう')).toEqual([members.yamadaTaro!.id]);
  });

  it('folds katakana, half-width katakana, full-width latin and spaces', async () => {
    expect(await idsFor('ヤマダ タロウ')).toEqual([members.yamadaTaro!.id]);
    expect(await idsFor('ﾔﾏﾀﾞﾀﾛｳ')).toEqual([members.yamadaTaro!.id]);
    expect(await idsFor('山田\u3000太郎')).toEqual([members.yamadaTaro!.id]);
    expect(await idsFor('ＳＭＩＴＨ')).toEqual([members.latin!.id]);
    expect(await idsFor('smith')).toEqual([members.latin!.id]);
  });

  it('matches part of a name: readings that start with it first, then the rest, in reading order', async () => {
    expect(await idsFor('やま')).toEqual([
      members.yamadaTaro!.id,
      members.yamadaHanako!.id,
      members.komiyama!.id,
    ]);
    expect(await idsFor('はなこ')).toEqual([members.yamadaHanako!.id]);
    expect(await idsFor('宮')).toEqual([members.komiyama!.id]);
    expect(await idsFor('花')).toEqual([members.yamadaHanako!.id]);
  });

  it('needs every character in order: pieces that occur apart do not match', async () => {
    expect(await idsFor('やまろう')).toEqual([]);
    expect(await idsFor('太花')).toEqual([]);
  });

  it('never shows members who opted out, are not active or were deleted, nor the searcher', async () => {
    const found = await idsFor('やまだ');
    expect(found).not.toContain(members.hidden!.id);
    expect(found).not.toContain(members.inactive!.id);
    expect(await idsFor('けんさく')).toEqual([]);

    const leaving = await memberNamed({
      lastName: '去田',
      firstName: '一',
      lastNameKana: 'さるた',
      firstNameKana: 'はじめ',
    });
    expect(await idsFor('さるた')).toEqual([leaving.id]);
    await t.ctx.database.db
      .update(users)
      .set({ status: 'deleted' })
      .where(eq(users.id, leaving.id));
    expect(await idsFor('さるた')).toEqual([]);
  });

  it('follows a change of name or of the search setting', async () => {
    const member = await memberNamed({
      lastName: '変田',
      firstName: '二郎',
      lastNameKana: 'かわた',
      firstNameKana: 'じろう',
    });
    const renamed = {
      lastName: '新田',
      firstName: '二郎',
      lastNameKana: 'にった',
      firstNameKana: 'じろう',
    };
    await t.ctx.database.db
      .update(users)
      .set({ ...renamed, nameReading: nameReadingOf(renamed) })
      .where(eq(users.id, member.id));
    expect(await idsFor('かわた')).toEqual([]);
    expect(await idsFor('にった')).toEqual([member.id]);
    await t.ctx.database.db.update(users).set({ searchable: false }).where(eq(users.id, member.id));
    expect(await idsFor('にった')).toEqual([]);
    await t.ctx.database.db.update(users).set({ searchable: true }).where(eq(users.id, member.id));
    expect(await idsFor('にった')).toEqual([member.id]);
  });

  it('answers names, a signed icon URL, own memorial page and the connection state', async () => {
    const { items } = await search('やまだたろう');
    expect(items[0]).toMatchObject({
      userId: members.yamadaTaro!.id,
      lastName: '山田',
      firstName: '太郎',
      // Their page is for connections: a stranger is not given its id.
      memorialPageId: null,
      iconUrl: expect.stringContaining('icons/abcdefghijklmnop1234.png'),
      connection: 'none',
      requestId: null,
    });
    expect(items[0]).not.toHaveProperty('iconName');

    const friend = await memberNamed({
      lastName: '友田',
      firstName: '友',
      lastNameKana: 'ともだ',
      firstNameKana: 'とも',
    });
    await connectMembers(t, searcher, friend);
    expect((await search('ともだ')).items[0]).toMatchObject({
      connection: 'connected',
      memorialPageId: friend.memorialPageId,
    });

    const asked = await t.request({
      method: 'POST',
      url: '/v1/connection/requests',
      token: searcher.token,
      body: { to_user_id: members.komiyama!.id, relationship: 'friend' },
    });
    expect((await search('こみやま')).items[0]).toMatchObject({
      connection: 'request_sent',
      requestId: asked.json().requestId,
    });
  });

  it('pages the results with a cursor, across the prefix and inner groups', async () => {
    const first = await search('やま', '&per_page=1');
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await search('やま', `&per_page=1&cursor=${first.nextCursor}`);
    const third = await search('やま', `&per_page=1&cursor=${second.nextCursor}`);
    expect(third.nextCursor).toBeNull();
    expect([...first.items, ...second.items, ...third.items].map((item) => item.userId)).toEqual([
      members.yamadaTaro!.id,
      members.yamadaHanako!.id,
      members.komiyama!.id,
    ]);
    const twoAtOnce = await search('やま', '&per_page=2');
    const rest = await search('やま', `&per_page=2&cursor=${twoAtOnce.nextCursor}`);
    expect(rest).toMatchObject({ items: [{ userId: members.komiyama!.id }], nextCursor: null });
  });

  it('refuses a cursor it did not make', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/v1/user_search?q=a&cursor=bm90LWEtY3Vyc29y',
      token: searcher.token,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([{ field: 'cursor', code: 'cursor_invalid' }]);
  });

  it('refuses an empty or overlong query with 422 and needs a signed-in member', async () => {
    const empty = await t.request({
      method: 'GET',
      url: '/v1/user_search?q=%20',
      token: searcher.token,
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual([{ field: 'q', code: 'required' }]);
    const long = await t.request({
      method: 'GET',
      url: `/v1/user_search?q=${'あ'.repeat(51)}`,
      token: searcher.token,
    });
    expect(long.json().errors).toEqual([{ field: 'q', code: 'too_long' }]);
    expect((await t.request({ method: 'GET', url: '/v1/user_search?q=a' })).statusCode).toBe(401);
  });
});
