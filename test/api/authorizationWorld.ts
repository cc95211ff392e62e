import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { memorialPageMembers, memorialPageProfiles, memorialPages } from '../../server/db/schema';
import { notify } from '../../server/domain/social/notifications';
import { connectMembers, createMember, type TestMember } from '../support/members';
import type { TestApp, TestRequest } from '../support/testApp';

/** Who asks, in the order each row's cells run (the owner last: their changes come last). */
export const PRINCIPALS = [
  'anonymous',
  'integration',
  'stranger',
  'connection',
  'noteReader',
  'deathAdmin',
  'viewer',
  'admin',
  'owner',
] as const;
export type Principal = (typeof PRINCIPALS)[number];

/** The integration client of FPOS_CLIENTS; it signs in with HTTP Basic, never a bearer. */
export const INTEGRATION = { id: 'acme-life', secret: 'integration-secret-0123456789' };
export const MATRIX_ENV = { FPOS_CLIENTS: `${INTEGRATION.id}:${INTEGRATION.secret}` };

/**
 * Texts only the owner may ever be answered. Each is written into the owner's data; a cell
 * for anyone else fails when one of them appears in the answer.
 */
export interface Secrets {
  ownerEmail: string;
  /** A section of the ending note kept private. */
  privateNote: string;
  /** A section opened to the designated reader: they may see it, no one else but the owner. */
  readerNote: string;
  letterBody: string;
  /** The id of the owner's `link` page: it reaches nobody who was not given the link. */
  linkPageId: string;
}

/**
 * The people of the matrix around one owner: their own memorial page (privacy
 * `connections`) with a second admin and a viewer; a connection; a designated ending-note
 * reader and a death administrator (both connections, as the rules require); a stranger.
 */
export interface World {
  t: TestApp;
  members: Record<Exclude<Principal, 'anonymous' | 'integration'>, TestMember>;
  owner: TestMember;
  pageId: string;
  letterId: string;
  /** One of the owner's notifications. */
  notificationId: string;
  secrets: Secrets;
  /** Fresh targets for calls that change or remove what they touch. */
  fresh: {
    historyEntryId(): Promise<string>;
    condolenceId(): Promise<string>;
    letterId(): Promise<string>;
    member(): Promise<TestMember>;
  };
}

async function ok(t: TestApp, request: TestRequest) {
  const answer = await t.request(request);
  expect(answer.statusCode, `${request.method} ${request.url}: ${answer.body}`).toBeLessThan(300);
  return answer;
}

export async function createWorld(t: TestApp): Promise<World> {
  const ownerEmail = `owner-private-${randomUUID()}@example.jp`;
  const owner = await createMember(t, { email: ownerEmail });
  const [admin, viewer, connection, noteReader, deathAdmin, stranger] = await Promise.all(
    Array.from({ length: 6 }, () => createMember(t)),
  );
  const db = t.ctx.database.db;
  const pageId = owner.memorialPageId;
  await db.insert(memorialPageMembers).values([
    { memorialPageId: pageId, userId: admin!.id, role: 'admin' },
    { memorialPageId: pageId, userId: viewer!.id, role: 'viewer' },
  ]);
  for (const other of [connection!, noteReader!, deathAdmin!]) {
    await connectMembers(t, owner, other);
  }
  const [linkPage] = await db
    .insert(memorialPages)
    .values({
      ownerUserId: owner.id,
      type: 'other',
      lastName: '秘',
      firstName: '頁',
      createdBy: owner.id,
    })
    .returning({ id: memorialPages.id });
  await db
    .update(memorialPageProfiles)
    .set({ privacy: 'link' })
    .where(eq(memorialPageProfiles.id, linkPage!.id));
  await db
    .insert(memorialPageMembers)
    .values({ memorialPageId: linkPage!.id, userId: owner.id, role: 'admin' });

  const secrets: Secrets = {
    ownerEmail,
    privateNote: `private-note-${randomUUID()}`,
    readerNote: `reader-note-${randomUUID()}`,
    letterBody: `letter-body-${randomUUID()}`,
    linkPageId: linkPage!.id,
  };
  const note = `/v1/endingnote/${owner.id}`;
  const asOwner = { token: owner.token };
  await ok(t, {
    method: 'PUT',
    url: `${note}/sections/message`,
    ...asOwner,
    body: { version: 0, values: { to_family: secrets.privateNote } },
  });
  await ok(t, {
    method: 'PUT',
    url: `${note}/sections/self`,
    ...asOwner,
    body: { version: 0, values: { full_name: secrets.readerNote } },
  });
  await ok(t, {
    method: 'PUT',
    url: `${note}/sections/self/visibility`,
    ...asOwner,
    body: { visibility: 'readers_now' },
  });
  await ok(t, {
    method: 'PUT',
    url: `${note}/readers`,
    ...asOwner,
    body: { user_ids: [noteReader!.id] },
  });
  await ok(t, {
    method: 'PUT',
    url: '/v1/fpos/death_settings',
    ...asOwner,
    body: { rule: 'any_one', administrator_user_ids: [deathAdmin!.id], check_in_period_days: null },
  });

  const writeLetter = async () =>
    (
      await ok(t, {
        method: 'POST',
        url: '/v1/time_capsule_letter',
        ...asOwner,
        body: {
          title: '未来へ',
          body: secrets.letterBody,
          recipients: [
            { kind: 'guest', email: 'guest@example.jp', last_name: '客', first_name: '人' },
          ],
          delivery: { rule: 'date', send_at: '2030-01-01T09:00' },
        },
      })
    ).json().timeCapsuleLetterId as string;

  await notify(
    db,
    owner.id,
    'connection_accepted',
    { userId: connection!.id, name: '接続' },
    t.clock.now(),
  );
  const [ownNotification] = (
    await ok(t, { method: 'GET', url: '/v1/notification/user_notifications', ...asOwner })
  ).json().items as { id: string }[];

  return {
    t,
    owner,
    pageId,
    letterId: await writeLetter(),
    notificationId: ownNotification!.id,
    secrets,
    members: {
      owner,
      admin: admin!,
      viewer: viewer!,
      connection: connection!,
      noteReader: noteReader!,
      deathAdmin: deathAdmin!,
      stranger: stranger!,
    },
    fresh: {
      historyEntryId: async () =>
        (
          await ok(t, {
            method: 'POST',
            url: `/v1/history/memorial_page_id/${pageId}/history`,
            ...asOwner,
            body: { occurred_on: '2001-04-01', body: '入学' },
          })
        ).json().id,
      condolenceId: async () =>
        (
          await ok(t, {
            method: 'POST',
            url: `/v1/memorial_page/${pageId}/condolences`,
            token: connection!.token,
            body: { body: 'お悔やみ申し上げます' },
          })
        ).json().id,
      letterId: writeLetter,
      member: () => createMember(t),
    },
  };
}

/** How a principal signs its requests: a bearer for members, HTTP Basic for the integration. */
export function credentialsOf(world: World, principal: Principal): Partial<TestRequest> {
  if (principal === 'anonymous') return {};
  if (principal === 'integration') {
    const basic = Buffer.from(`${INTEGRATION.id}:${INTEGRATION.secret}`).toString('base64');
    return { headers: { authorization: `Basic ${basic}` } };
  }
  return { token: world.members[principal].token };
}

/** The secrets a principal may not be answered. */
export function secretsHiddenFrom(world: World, principal: Principal): string[] {
  if (principal === 'owner') return [];
  const { ownerEmail, privateNote, readerNote, letterBody, linkPageId } = world.secrets;
  const outsider = ['anonymous', 'integration', 'stranger'].includes(principal);
  return [
    ownerEmail,
    privateNote,
    letterBody,
    linkPageId,
    ...(principal === 'noteReader' ? [] : [readerNote]),
    // The owner's page is for connections: those who may not open it are not given its id.
    ...(outsider ? [world.pageId] : []),
  ];
}

/** Routes that answer an HTML page to a person following a mail link, errors included. */
export const HTML_PAGES = new Set([
  'GET /v1/fpos/check_in/:token',
  'POST /v1/fpos/check_in/:token',
]);

/** Never in any answer to anyone: what stores or proves a password. */
export const NEVER_ANSWERED = [/passwordHash/i, /password_hash/i, /\$scrypt\$/, /\$argon2/];
