import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../../server/domain/social/notifications';
import { createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const unread = async (who: TestMember) => {
  const response = await t.request({
    method: 'GET',
    url: '/v1/notification/user_notifications/unread/count',
    token: who.token,
  });
  expect(response.statusCode).toBe(200);
  return response.json().count as number;
};
const list = async (who: TestMember, query = '') =>
  (
    await t.request({
      method: 'GET',
      url: `/v1/notification/user_notifications${query}`,
      token: who.token,
    })
  ).json() as {
    items: {
      id: string;
      kind: string;
      payload: unknown;
      createdAt: string;
      readAt: string | null;
    }[];
    hasMore: boolean;
  };
/** A notification as another area would record it, one minute after the previous one. */
const letterFor = (who: TestMember, title: string) => {
  t.clock.advance(60_000);
  return notify(
    t.ctx.database.db,
    who.id,
    'letter_delivered',
    { letterId: crypto.randomUUID(), senderName: '山田 太郎', title },
    t.clock.now(),
  );
};

describe('notifications', () => {
  it('counts unread notifications, lists them newest first and pages them', async () => {
    const member = await createMember(t);
    expect(await unread(member)).toBe(0);
    for (const title of ['first', 'second', 'third']) await letterFor(member, title);
    expect(await unread(member)).toBe(3);

    const firstPage = await list(member, '?per_page=2');
    expect(firstPage.hasMore).toBe(true);
    expect(firstPage.items.map((item) => (item.payload as { title: string }).title)).toEqual([
      'third',
      'second',
    ]);
    expect(firstPage.items[0]).toMatchObject({
      kind: 'letter_delivered',
      createdAt: t.clock.now().toISOString(),
      readAt: null,
    });
    const secondPage = await list(member, '?per_page=2&page=2');
    expect(secondPage.hasMore).toBe(false);
    expect(secondPage.items.map((item) => (item.payload as { title: string }).title)).toEqual([
      'first',
    ]);
  });

  it('marks one read, then all read', async () => {
    const member = await createMember(t);
    const first = await letterFor(member, 'one');
    await letterFor(member, 'two');
    await letterFor(member, 'three');
    const read = await t.request({
      method: 'POST',
      url: `/v1/notification/user_notifications/${first}/read`,
      token: member.token,
    });
    expect(read.statusCode).toBe(204);
    expect(await unread(member)).toBe(2);
    const readAt = (await list(member)).items.find((item) => item.id === first)!.readAt;
    expect(readAt).toBe(t.clock.now().toISOString());

    t.clock.advance(1000);
    const again = await t.request({
      method: 'POST',
      url: `/v1/notification/user_notifications/${first}/read`,
      token: member.token,
    });
    expect(again.statusCode).toBe(204);
    expect((await list(member)).items.find((item) => item.id === first)!.readAt).toBe(readAt);

    const all = await t.request({
      method: 'POST',
      url: '/v1/notification/user_notifications/read_all',
      token: member.token,
    });
    expect(all.json()).toEqual({ marked: 2 });
    expect(await unread(member)).toBe(0);
  });

  it('keeps each member to their own notifications: another’s answers 404', async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const id = await letterFor(owner, 'private');
    const response = await t.request({
      method: 'POST',
      url: `/v1/notification/user_notifications/${id}/read`,
      token: other.token,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
    expect(await unread(owner)).toBe(1);
    expect((await list(other)).items).toEqual([]);
    await t.request({
      method: 'POST',
      url: '/v1/notification/user_notifications/read_all',
      token: other.token,
    });
    expect(await unread(owner)).toBe(1);
  });

  it('answers 422 for a malformed id and 401 without a token', async () => {
    const member = await createMember(t);
    const malformed = await t.request({
      method: 'POST',
      url: '/v1/notification/user_notifications/not-an-id/read',
      token: member.token,
    });
    expect(malformed.statusCode).toBe(422);
    const anonymous = await t.request({
      method: 'GET',
      url: '/v1/notification/user_notifications/unread/count',
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
