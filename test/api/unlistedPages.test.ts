import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorialPageProfiles, type Privacy } from '../../server/db/schema';
import { notify } from '../../server/domain/social/notifications';
import { nameReadingOf } from '../../contract/rules/nameReading';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
/** The member whose own page is `link`: only people given its address may open it. */
let owner: TestMember;
let stranger: TestMember;
let connection: TestMember;

const names = {
  lastName: '秘密',
  firstName: '頁',
  lastNameKana: 'ひみつ',
  firstNameKana: 'ぺーじ',
};

async function setPrivacy(privacy: Privacy) {
  await t.ctx.database.db
    .update(memorialPageProfiles)
    .set({ privacy })
    .where(eq(memorialPageProfiles.id, owner.memorialPageId));
}

/** Every answer a member's home and social screens receive, as one text. */
async function everythingSeenBy(member: TestMember): Promise<string> {
  const urls = [
    `/v1/user_search?q=${encodeURIComponent('ひみつ')}`,
    '/v1/connection/requests',
    '/v1/connection/connections',
    '/v1/dashboard',
    '/v1/mourning',
    '/v1/notification/user_notifications',
    `/v1/user/${owner.id}`,
  ];
  const answers = await Promise.all(
    urls.map((url) => t.request({ method: 'GET', url, token: member.token })),
  );
  for (const answer of answers) expect(answer.statusCode).toBe(200);
  return answers.map((answer) => answer.body).join('\n');
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await createMember(t, { ...names, nameReading: nameReadingOf(names) });
  stranger = await createMember(t);
  connection = await createMember(t);
  await connectMembers(t, owner, connection);
});
afterAll(async () => t.close());

describe('a link page is listed to nobody who only could open its link', () => {
  it('a stranger finds the member in search, but not their page id', async () => {
    await setPrivacy('link');
    const answer = await t.request({
      method: 'GET',
      url: `/v1/user_search?q=${encodeURIComponent('ひみつ')}`,
      token: stranger.token,
    });
    const found = answer.json().items.find((item: { userId: string }) => item.userId === owner.id);
    expect(found).toMatchObject({ userId: owner.id, memorialPageId: null });
  });

  it("connection requests both ways carry no id of the other's link page", async () => {
    const sent = await t.request({
      method: 'POST',
      url: '/v1/connection/requests',
      token: stranger.token,
      body: { to_user_id: owner.id, relationship: 'friend' },
    });
    expect(sent.statusCode).toBe(201);
    const seenByStranger = await everythingSeenBy(stranger);
    expect(seenByStranger).toContain(owner.id);
    expect(seenByStranger).not.toContain(owner.memorialPageId);
    const ownRequests = await t.request({
      method: 'GET',
      url: '/v1/connection/requests',
      token: owner.token,
    });
    expect(ownRequests.json().received[0].member).toMatchObject({
      userId: stranger.id,
      memorialPageId: null,
    });
  });

  it('a connection of the page admin is shown the id: they may open the page anyway', async () => {
    const answer = await t.request({
      method: 'GET',
      url: '/v1/connection/connections',
      token: connection.token,
    });
    expect(answer.json().items[0]).toMatchObject({
      userId: owner.id,
      memorialPageId: owner.memorialPageId,
    });
  });

  it('a notification about the page loses its id for someone who may no longer list it', async () => {
    const payload = {
      memorialPageId: owner.memorialPageId,
      pageName: '秘密 頁',
      anniversary: 'isshuki',
      date: '2027-01-01',
    };
    for (const member of [stranger, connection]) {
      await notify(t.ctx.database.db, member.id, 'anniversary_coming', payload, t.clock.now());
    }
    const payloadSeenBy = async (member: TestMember) =>
      (
        await t.request({
          method: 'GET',
          url: '/v1/notification/user_notifications',
          token: member.token,
        })
      )
        .json()
        .items.find((item: { kind: string }) => item.kind === 'anniversary_coming').payload;
    expect(await payloadSeenBy(stranger)).toEqual({
      pageName: '秘密 頁',
      anniversary: 'isshuki',
      date: '2027-01-01',
    });
    expect(await payloadSeenBy(connection)).toEqual(payload);
  });

  it('a public page is listed to a stranger; an admins-only page not even to a connection', async () => {
    await setPrivacy('public');
    expect(await everythingSeenBy(stranger)).toContain(owner.memorialPageId);
    await setPrivacy('admins');
    expect(await everythingSeenBy(connection)).not.toContain(owner.memorialPageId);
    await setPrivacy('link');
  });
});
