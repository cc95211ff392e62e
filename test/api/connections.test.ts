import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const send = (from: TestMember, to: TestMember, relationship = 'friend') =>
  t.request({
    method: 'POST',
    url: '/v1/connection/requests',
    token: from.token,
    body: { to_user_id: to.id, relationship },
  });
const answer = (
  who: TestMember,
  requestId: string,
  action: 'accept' | 'decline' | 'cancel',
  relationship = 'family',
) =>
  t.request({
    method: 'POST',
    url: `/v1/connection/requests/${requestId}/${action}`,
    token: who.token,
    ...(action === 'accept' ? { body: { relationship } } : {}),
  });
const connectionsOf = async (who: TestMember) =>
  (await t.request({ method: 'GET', url: '/v1/connection/connections', token: who.token })).json()
    .items as { userId: string; relationship: string; theirRelationship: string }[];
const requestsOf = async (who: TestMember) =>
  (await t.request({ method: 'GET', url: '/v1/connection/requests', token: who.token })).json() as {
    received: { requestId: string; relationship: string; member: { userId: string } }[];
    sent: { requestId: string; member: { userId: string } }[];
  };
const notificationsOf = async (who: TestMember) =>
  (
    await t.request({ method: 'GET', url: '/v1/notification/user_notifications', token: who.token })
  ).json().items as { kind: string; payload: Record<string, string> }[];

describe('connection requests', () => {
  it('sends, lists on both sides, notifies, and connects both ways on acceptance', async () => {
    const a = await createMember(t, { lastName: '佐藤', firstName: '花子' });
    const b = await createMember(t);
    const sent = await send(a, b, 'friend');
    expect(sent.statusCode).toBe(201);
    const { requestId } = sent.json();
    expect(sent.json()).toEqual({ status: 'requested', requestId });

    expect((await requestsOf(a)).sent.map((r) => r.member.userId)).toEqual([b.id]);
    const received = (await requestsOf(b)).received;
    expect(received).toMatchObject([
      { requestId, relationship: 'friend', member: { userId: a.id } },
    ]);
    expect(await notificationsOf(b)).toMatchObject([
      {
        kind: 'connection_requested',
        payload: { requestId, fromUserId: a.id, fromName: '佐藤 花子' },
      },
    ]);

    expect((await answer(b, requestId, 'accept', 'family')).statusCode).toBe(204);
    expect(await connectionsOf(a)).toMatchObject([
      { userId: b.id, relationship: 'friend', theirRelationship: 'family' },
    ]);
    expect(await connectionsOf(b)).toMatchObject([
      { userId: a.id, relationship: 'family', theirRelationship: 'friend' },
    ]);
    expect((await notificationsOf(a))[0]).toMatchObject({
      kind: 'connection_accepted',
      payload: { userId: b.id },
    });
    expect((await requestsOf(a)).sent).toEqual([]);
    expect((await requestsOf(b)).received).toEqual([]);
  });

  it('accepts automatically when two requests cross', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    const first = (await send(a, b, 'relative')).json();
    const crossing = await send(b, a, 'acquaintance');
    expect(crossing.statusCode).toBe(200);
    expect(crossing.json()).toEqual({ status: 'connected', requestId: first.requestId });
    expect(await connectionsOf(a)).toMatchObject([
      { userId: b.id, relationship: 'relative', theirRelationship: 'acquaintance' },
    ]);
    expect((await requestsOf(a)).sent).toEqual([]);
    expect((await notificationsOf(a))[0]).toMatchObject({ kind: 'connection_accepted' });
  });

  it('refuses a second request the same way, a request to oneself and one to the connected', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    await send(a, b);
    const again = await send(a, b);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('request_pending');

    const self = await send(a, a);
    expect(self.statusCode).toBe(422);
    expect(self.json().errors).toEqual([{ field: 'to_user_id', code: 'connection_to_self' }]);

    const c = await createMember(t);
    await connectMembers(t, a, c);
    const connected = await send(a, c);
    expect(connected.statusCode).toBe(409);
    expect(connected.json().code).toBe('already_connected');
  });

  it('answers 404 for unknown, inactive and deleted members, 422 for a bad relationship', async () => {
    const a = await createMember(t);
    const inactive = await createMember(t, { status: 'inactive' });
    const deleted = await createMember(t, { status: 'deleted' });
    expect((await send(a, inactive)).statusCode).toBe(404);
    expect((await send(a, deleted)).statusCode).toBe(404);
    const unknown = await t.request({
      method: 'POST',
      url: '/v1/connection/requests',
      token: a.token,
      body: { to_user_id: '00000000-0000-4000-8000-000000000000', relationship: 'friend' },
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await send(a, inactive, 'enemy');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual([{ field: 'relationship', code: 'relationship_invalid' }]);
  });

  it('declines without telling the sender, and the pair may ask again later', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    const { requestId } = (await send(a, b)).json();
    expect((await answer(b, requestId, 'decline')).statusCode).toBe(204);
    expect((await requestsOf(a)).sent).toEqual([]);
    expect(await notificationsOf(a)).toEqual([]);
    expect(await connectionsOf(a)).toEqual([]);
    expect((await answer(b, requestId, 'accept')).statusCode).toBe(409);
    expect((await send(a, b)).statusCode).toBe(201);
  });

  it('cancels a sent request and withdraws its notification', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    const { requestId } = (await send(a, b)).json();
    expect((await answer(a, requestId, 'cancel')).statusCode).toBe(204);
    expect((await requestsOf(b)).received).toEqual([]);
    expect(await notificationsOf(b)).toEqual([]);
    const unread = await t.request({
      method: 'GET',
      url: '/v1/notification/user_notifications/unread/count',
      token: b.token,
    });
    expect(unread.json()).toEqual({ count: 0 });
    expect((await answer(a, requestId, 'cancel')).json().code).toBe('request_not_pending');
  });

  it('lets only the recipient answer and only the sender cancel (404 for anyone else)', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    const stranger = await createMember(t);
    const { requestId } = (await send(a, b)).json();
    expect((await answer(a, requestId, 'accept')).statusCode).toBe(404);
    expect((await answer(stranger, requestId, 'accept')).statusCode).toBe(404);
    expect((await answer(stranger, requestId, 'decline')).statusCode).toBe(404);
    expect((await answer(b, requestId, 'cancel')).statusCode).toBe(404);
    expect((await requestsOf(b)).received).toHaveLength(1);
  });
});

describe('connections', () => {
  it('changes one side’s relationship and removes both directions', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    await connectMembers(t, a, b, 'friend');
    const changed = await t.request({
      method: 'PATCH',
      url: `/v1/connection/connections/${b.id}`,
      token: a.token,
      body: { relationship: 'family' },
    });
    expect(changed.statusCode).toBe(204);
    expect(await connectionsOf(b)).toMatchObject([
      { userId: a.id, relationship: 'friend', theirRelationship: 'family' },
    ]);

    const removed = await t.request({
      method: 'DELETE',
      url: `/v1/connection/connections/${a.id}`,
      token: b.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(await connectionsOf(a)).toEqual([]);
    expect(await connectionsOf(b)).toEqual([]);
    const again = await t.request({
      method: 'DELETE',
      url: `/v1/connection/connections/${a.id}`,
      token: b.token,
    });
    expect(again.statusCode).toBe(404);
  });

  it('lists names, own memorial page and a signed icon URL; leaves deleted members out', async () => {
    const a = await createMember(t);
    const b = await createMember(t, { iconName: 'icons/abcdefghijklmnop1234.png' });
    const gone = await createMember(t);
    await connectMembers(t, a, b);
    await connectMembers(t, a, gone);
    await t.ctx.database.db.update(users).set({ status: 'deleted' }).where(eq(users.id, gone.id));
    const response = await t.request({
      method: 'GET',
      url: '/v1/connection/connections',
      token: a.token,
    });
    const items = response.json().items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      userId: b.id,
      lastName: '山田',
      memorialPageId: b.memorialPageId,
      iconUrl: expect.stringContaining('icons/abcdefghijklmnop1234.png'),
    });
    expect(items[0]).not.toHaveProperty('iconName');
  });

  it('needs a signed-in member', async () => {
    const response = await t.request({ method: 'GET', url: '/v1/connection/connections' });
    expect(response.statusCode).toBe(401);
  });
});
