/**
 * GET /v1/mypage/visibility (docs/visibility.md): who can see each of a member's pages,
 * ending-note sections and letters, read with the rules the areas themselves apply. Each
 * claim of the overview is checked against what the other member can really read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorialPageMembers } from '../../server/db/schema';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { timecapsuleDepsOf } from '../../server/areaDeps';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { SECTION_CODES } from '../../contract/rules/endingnote';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
let owner: TestMember;
let friend: TestMember;
let stranger: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createMember(t, { lastName: '佐藤', firstName: '花子' });
  friend = await createMember(t, { lastName: '鈴木', firstName: '一郎' });
  stranger = await createMember(t, { lastName: '高橋', firstName: '三郎' });
  await connectMembers(t, owner, friend);
});
afterAll(async () => {
  await t.close();
});

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  token: string,
  body?: object,
) {
  return t.request({ method, url, token, ...(body ? { body } : {}) });
}

async function ok(method: 'POST' | 'PUT' | 'PATCH', url: string, token: string, body: object) {
  const response = await call(method, url, token, body);
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as Record<string, unknown>;
}

const overviewOf = async (member: TestMember) => {
  const response = await call('GET', '/v1/mypage/visibility', member.token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('the visibility overview', () => {
  it('answers 401 without a member', async () => {
    const response = await t.request({ method: 'GET', url: '/v1/mypage/visibility' });
    expect(response.statusCode).toBe(401);
  });

  it('lists the pages the member keeps, own page first, with who may see each', async () => {
    await ok('PATCH', `/v1/memorial_page/${owner.memorialPageId}`, owner.token, {
      privacy: 'public',
    });
    const pet = await ok('POST', '/v1/memorial_page', owner.token, {
      type: 'pet',
      first_name: 'ポチ',
      first_name_kana: 'ぽち',
      animal_kind: '柴犬',
      privacy: 'admins',
    });
    // A page of someone else's that the member does not keep is not theirs to list.
    await ok('POST', '/v1/memorial_page', stranger.token, {
      type: 'pet',
      first_name: 'タマ',
      first_name_kana: 'たま',
      animal_kind: '猫',
    });

    // A page for oneself that someone else asked the member to keep is listed, not as theirs.
    await t.ctx.database.db
      .insert(memorialPageMembers)
      .values({ memorialPageId: friend.memorialPageId, userId: owner.id, role: 'admin' });

    const overview = await overviewOf(owner);
    expect(overview.pages).toEqual([
      {
        memorialPageId: owner.memorialPageId,
        type: 'self',
        own: true,
        lastName: '佐藤',
        firstName: '花子',
        privacy: 'public',
        searchable: true,
      },
      {
        memorialPageId: friend.memorialPageId,
        type: 'self',
        own: false,
        lastName: '鈴木',
        firstName: '一郎',
        privacy: 'connections',
        searchable: true,
      },
      {
        memorialPageId: pet.memorialPageId,
        type: 'pet',
        own: false,
        lastName: '',
        firstName: 'ポチ',
        privacy: 'admins',
        searchable: true,
      },
    ]);
    // What it says holds: a signed-out visitor reads the public page, a connection not the
    // admins-only one.
    expect(
      (await t.request({ method: 'GET', url: `/v1/memorial_page/${owner.memorialPageId}` }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('GET', `/v1/memorial_page/${String(pet.memorialPageId)}`, friend.token))
        .statusCode,
    ).toBe(404);
  });

  it('gives every ending-note section its visibility and names the readers', async () => {
    await ok('PUT', `/v1/endingnote/${owner.id}/readers`, owner.token, { user_ids: [friend.id] });
    await ok('PUT', `/v1/endingnote/${owner.id}/sections/message/visibility`, owner.token, {
      visibility: 'readers_now',
    });
    await ok('PUT', `/v1/endingnote/${owner.id}/sections/funeral/visibility`, owner.token, {
      visibility: 'readers_after_death',
    });

    const { endingNote } = await overviewOf(owner);
    expect(endingNote.sections.map((row: { section: string }) => row.section)).toEqual(
      SECTION_CODES,
    );
    const visibilityOf = Object.fromEntries(
      endingNote.sections.map((row: { section: string; visibility: string }) => [
        row.section,
        row.visibility,
      ]),
    );
    expect(visibilityOf).toMatchObject({
      message: 'readers_now',
      funeral: 'readers_after_death',
      self: 'private',
      assets: 'private',
    });
    expect(endingNote.readers).toEqual([
      { userId: friend.id, lastName: '鈴木', firstName: '一郎', connected: true },
    ]);
    // The reader reads the section open now, and not the one kept for after a death.
    const note = `/v1/endingnote/${owner.id}/sections`;
    expect((await call('GET', `${note}/message`, friend.token)).statusCode).toBe(200);
    expect((await call('GET', `${note}/funeral`, friend.token)).statusCode).toBe(404);
  });

  it('lists every letter the member wrote, those still to go first', async () => {
    const dated = await ok('POST', '/v1/time_capsule_letter', owner.token, {
      title: '来年のあなたへ',
      body: 'お元気で。',
      recipients: [{ kind: 'member', user_id: friend.id }],
      admin_user_ids: [],
      delivery: { rule: 'date', send_at: '2027-01-01T09:00' },
    });
    const afterDeath = await ok('POST', '/v1/time_capsule_letter', owner.token, {
      title: 'ありがとう',
      body: '今まで本当に。',
      recipients: [
        { kind: 'guest', last_name: '田中', first_name: '葉子', email: 'yoko@example.jp' },
      ],
      admin_user_ids: [friend.id],
      delivery: { rule: 'death', delay_days: 0 },
    });
    const soon = await ok('POST', '/v1/time_capsule_letter', owner.token, {
      title: '明日のあなたへ',
      body: 'また明日。',
      recipients: [{ kind: 'member', user_id: friend.id }],
      admin_user_ids: [],
      delivery: { rule: 'date', send_at: '2026-11-23T09:00' },
    });
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    // Access tokens live minutes; after the clock's jump the members sign in again.
    for (const member of [owner, friend, stranger])
      member.token = await issueAccessToken(member.id, t.config.authSecret, t.clock);

    const { letters } = await overviewOf(owner);
    expect(
      letters.map((letter: Record<string, unknown>) => ({
        id: letter.timeCapsuleLetterId,
        delivered: letter.deliveredAt !== null,
        event: letter.event,
        receivers: letter.receivers,
        admins: letter.adminLastNames,
      })),
    ).toEqual([
      {
        id: dated.timeCapsuleLetterId,
        delivered: false,
        event: null,
        receivers: [{ lastName: '鈴木', firstName: '一郎' }],
        admins: [],
      },
      {
        id: afterDeath.timeCapsuleLetterId,
        delivered: false,
        event: 'death',
        receivers: [{ lastName: '田中', firstName: '葉子' }],
        admins: ['鈴木'],
      },
      {
        id: soon.timeCapsuleLetterId,
        delivered: true,
        event: null,
        receivers: [{ lastName: '鈴木', firstName: '一郎' }],
        admins: [],
      },
    ]);
  });

  it('shows a stranger nothing of the member’s, and a reader whose connection ended as such', async () => {
    const theirs = await overviewOf(stranger);
    expect(
      theirs.pages.map((page: { memorialPageId: string }) => page.memorialPageId),
    ).not.toContain(owner.memorialPageId);
    expect(theirs.endingNote.readers).toEqual([]);
    expect(theirs.letters).toEqual([]);

    const ended = await call('DELETE', `/v1/connection/connections/${friend.id}`, owner.token);
    expect(ended.statusCode, ended.body).toBeLessThan(300);
    const { endingNote } = await overviewOf(owner);
    expect(endingNote.readers).toEqual([
      { userId: friend.id, lastName: '鈴木', firstName: '一郎', connected: false },
    ]);
    expect(
      (await call('GET', `/v1/endingnote/${owner.id}/sections/message`, friend.token)).statusCode,
    ).toBe(404);
  });

  it('says whether user search lists the member', async () => {
    expect((await overviewOf(owner)).searchable).toBe(true);
    await ok('PATCH', '/v1/mypage/profile', owner.token, { searchable: false });
    expect((await overviewOf(owner)).searchable).toBe(false);
  });
});
