import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { timecapsuleDepsOf } from '../../server/areaDeps';
import { deliverAllDueLetters } from '../../server/domain/timecapsule/delivery';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createSecondInstance, createTestApp, type TestApp } from '../support/testApp';

// The three letter lists show every change on the next read, whichever instance made it:
// every change goes through instance A (or the delivery job), every read through instance B,
// a second application on the same database, revalidating what it read before (ETag, 304).

const BASE = '/v1/time_capsule_letter';

let t: TestApp;
let other: FastifyInstance;
let writer: TestMember;
let reader: TestMember;
let admin: TestMember;
let stranger: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  other = await createSecondInstance(t);
  writer = await createMember(t, { lastName: '佐藤', firstName: '花子' });
  reader = await createMember(t, { lastName: '佐藤', firstName: '一郎' });
  admin = await createMember(t, { lastName: '鈴木', firstName: '次郎' });
  stranger = await createMember(t, { lastName: '田中', firstName: '三郎' });
  await connectMembers(t, writer, reader, 'family');
  await connectMembers(t, writer, admin, 'friend');
});
afterAll(async () => {
  await other.close();
  await t.close();
});

interface Envelope {
  timeCapsuleLetterId: string;
  title: string;
  receiverFirstName: string;
  receiverLastName: string;
  adminFirstNames: string[];
  sendDate: string;
}
interface Received {
  timeCapsuleLetterId: string;
  senderFirstName: string;
  title: string;
  openedAt: string | null;
}

type List = 'get_unsent_letters' | 'get_admin_letters' | 'get_received_letters';

/** What a browser holds of each member's lists: the last answer and its ETag. */
const held = new Map<string, { etag: string; body: unknown[] }>();
let notModified = 0;

/**
 * A list read through the other instance, as a browser revalidates the copy it holds: with
 * its ETag in If-None-Match, a 304 meaning the held copy is still the list. Every check of a
 * list below thus also checks that the change bumped its version.
 */
async function listOf<T>(member: TestMember, list: List): Promise<T[]> {
  const key = `${member.id} ${list}`;
  const copy = held.get(key);
  const response = await other.inject({
    method: 'GET',
    url: `${BASE}/${list}`,
    headers: {
      authorization: `Bearer ${member.token}`,
      ...(copy ? { 'if-none-match': copy.etag } : {}),
    },
  });
  expect(response.headers['cache-control']).toBe('private, no-cache');
  if (copy && response.statusCode === 304) {
    expect(response.body).toBe('');
    notModified += 1;
    return copy.body as T[];
  }
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const etag = response.headers.etag;
  expect(etag).toMatch(/^"letters\.[a-z]+\./);
  const body = response.json() as T[];
  held.set(key, { etag: String(etag), body });
  return body;
}

/** Reads every list of every member twice, so that each is kept before the next change. */
async function readAllTwice(): Promise<void> {
  for (let round = 0; round < 2; round += 1) {
    for (const member of [writer, reader, admin, stranger]) {
      for (const list of [
        'get_unsent_letters',
        'get_admin_letters',
        'get_received_letters',
      ] as const)
        await listOf(member, list);
    }
  }
}

async function change(
  member: TestMember,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET',
  url: string,
  body?: object,
) {
  const response = await t.request({ method, url, token: member.token, body });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response;
}

const letterBody = (overrides: Record<string, unknown> = {}) => ({
  title: '二十歳のあなたへ',
  body: 'おめでとう。',
  recipients: [{ kind: 'member', user_id: reader.id }],
  admin_user_ids: [admin.id],
  delivery: { rule: 'date', send_at: '2027-01-01T09:00' },
  ...overrides,
});

async function renewTokens(): Promise<void> {
  for (const member of [writer, reader, admin, stranger])
    member.token = await issueAccessToken(member.id, t.config.authSecret, t.clock);
}

describe('letter lists', () => {
  it('show every change of a letter on the next read of another instance', async () => {
    await readAllTwice();
    expect(await listOf(writer, 'get_unsent_letters')).toEqual([]);

    // Written: in the writer's and the admin's lists.
    const created = await change(writer, 'POST', BASE, letterBody());
    const id = created.json().timeCapsuleLetterId as string;
    expect((await listOf<Envelope>(writer, 'get_unsent_letters')).map((l) => l.title)).toEqual([
      '二十歳のあなたへ',
    ]);
    expect((await listOf<Envelope>(admin, 'get_admin_letters')).map((l) => l.title)).toEqual([
      '二十歳のあなたへ',
    ]);
    await readAllTwice();

    // Edited: a new title, a new date, no admin any more.
    await change(
      writer,
      'PUT',
      `${BASE}/${id}`,
      letterBody({
        title: '成人の日に',
        admin_user_ids: [],
        delivery: { rule: 'date', send_at: '2027-01-11T09:00' },
      }),
    );
    const [edited] = await listOf<Envelope>(writer, 'get_unsent_letters');
    expect(edited).toMatchObject({ title: '成人の日に', adminFirstNames: [] });
    expect(edited!.sendDate).toBe('2027-01-11T00:00:00.000Z');
    expect(await listOf(admin, 'get_admin_letters')).toEqual([]);
    await readAllTwice();

    // The admin again, then deleted: gone from both lists.
    await change(writer, 'PUT', `${BASE}/${id}`, letterBody({ title: '成人の日に' }));
    expect(await listOf(admin, 'get_admin_letters')).toHaveLength(1);
    await readAllTwice();
    await change(writer, 'DELETE', `${BASE}/${id}`);
    expect(await listOf(writer, 'get_unsent_letters')).toEqual([]);
    expect(await listOf(admin, 'get_admin_letters')).toEqual([]);
  });

  it('show a new name of a recipient, an admin or a sender on the next read', async () => {
    await change(writer, 'POST', BASE, letterBody({ title: '名前の手紙' }));
    await readAllTwice();
    const rename = (member: TestMember, first_name: string) =>
      change(member, 'PATCH', '/v1/mypage/profile', { first_name });

    await rename(reader, '一朗');
    const [unsent] = await listOf<Envelope>(writer, 'get_unsent_letters');
    expect(unsent!.receiverFirstName).toBe('一朗');
    await readAllTwice();

    await rename(admin, '二郎');
    expect((await listOf<Envelope>(writer, 'get_unsent_letters'))[0]!.adminFirstNames).toEqual([
      '二郎',
    ]);
    expect((await listOf<Envelope>(admin, 'get_admin_letters'))[0]!.adminFirstNames).toEqual([
      '二郎',
    ]);
  });

  it('show a delivery, and its opening, on the next read', async () => {
    await readAllTwice();
    const before = await listOf<Envelope>(writer, 'get_unsent_letters');
    expect(before).toHaveLength(1);
    const id = before[0]!.timeCapsuleLetterId;
    expect(await listOf(reader, 'get_received_letters')).toEqual([]);

    // Past 1 January 2027 (Japan time): the job delivers it, outside any request.
    t.clock.set(new Date('2027-01-01T00:30:00.000Z'));
    await renewTokens();
    await readAllTwice();
    await deliverAllDueLetters(timecapsuleDepsOf(t.ctx));
    expect(await listOf(writer, 'get_unsent_letters')).toEqual([]);
    const [received] = await listOf<Received>(reader, 'get_received_letters');
    expect(received).toMatchObject({
      timeCapsuleLetterId: id,
      title: '名前の手紙',
      openedAt: null,
    });
    await readAllTwice();

    // Opened by the reader: the opening time is in the list.
    await change(reader, 'GET', `${BASE}/${id}`);
    const [opened] = await listOf<Received>(reader, 'get_received_letters');
    expect(opened!.openedAt).not.toBeNull();
    await readAllTwice();

    // The sender's new name, in the reader's list.
    await change(writer, 'PATCH', '/v1/mypage/profile', { first_name: '華子' });
    expect((await listOf<Received>(reader, 'get_received_letters'))[0]!.senderFirstName).toBe(
      '華子',
    );
  });

  it('answer an unchanged list 304 with no body, and a changed one afresh with a new tag', async () => {
    await readAllTwice();
    const before = notModified;
    await readAllTwice();
    // Every list of every member held and unchanged.
    expect(notModified - before).toBe(24);
    const unsent = held.get(`${writer.id} get_unsent_letters`)!.etag;
    const received = held.get(`${reader.id} get_received_letters`)!.etag;
    const created = await change(
      writer,
      'POST',
      BASE,
      letterBody({ title: '新しい手紙', delivery: { rule: 'date', send_at: '2029-01-01T09:00' } }),
    );
    expect((await listOf<Envelope>(writer, 'get_unsent_letters')).map((l) => l.title)).toContain(
      '新しい手紙',
    );
    expect(held.get(`${writer.id} get_unsent_letters`)!.etag).not.toBe(unsent);
    // Another member's tag is no answer to this member's list.
    const borrowed = await other.inject({
      method: 'GET',
      url: `${BASE}/get_received_letters`,
      headers: { authorization: `Bearer ${stranger.token}`, 'if-none-match': received },
    });
    expect(borrowed.statusCode).toBe(200);
    expect(borrowed.json()).toEqual([]);
    await change(writer, 'DELETE', `${BASE}/${created.json().timeCapsuleLetterId as string}`);
    expect(
      (await listOf<Envelope>(writer, 'get_unsent_letters')).map((l) => l.title),
    ).not.toContain('新しい手紙');
  });

  it('are never handed to another member, and not without a token', async () => {
    await change(
      writer,
      'POST',
      BASE,
      letterBody({
        title: '見せない手紙',
        delivery: { rule: 'date', send_at: '2028-01-01T09:00' },
      }),
    );
    await readAllTwice();
    expect(await listOf<Envelope>(writer, 'get_unsent_letters')).toHaveLength(1);
    // The admin's list holds the delivered letter of the test before too.
    expect(await listOf<Envelope>(admin, 'get_admin_letters')).toHaveLength(2);
    // The stranger's lists stay their own, empty, however often the others were kept.
    for (const list of ['get_unsent_letters', 'get_admin_letters', 'get_received_letters'] as const)
      expect(await listOf(stranger, list)).toEqual([]);
    expect(await listOf(reader, 'get_unsent_letters')).toEqual([]);
    expect(await listOf(reader, 'get_admin_letters')).toEqual([]);
    for (const list of ['get_unsent_letters', 'get_admin_letters', 'get_received_letters']) {
      const response = await other.inject({ method: 'GET', url: `${BASE}/${list}` });
      expect(response.statusCode).toBe(401);
    }
  });
});
