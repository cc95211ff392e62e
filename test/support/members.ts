import { randomUUID } from 'node:crypto';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { connections, memorialPageMembers, memorialPages, users } from '../../server/db/schema';
import type { Relationship } from '../../server/db/schema';
import type { Database } from '../../server/db/database';
import type { Clock } from '../../server/lib/clock';
import type { TestApp } from './testApp';

export interface TestMember {
  id: string;
  email: string;
  memorialPageId: string;
  /** A valid bearer access token for the member, minted with the server's own key. */
  token: string;
}

/** What createMember needs: a TestApp has it, and so has the bench's direct database access. */
export interface MemberFactory {
  ctx: { database: Pick<Database, 'db'> };
  clock: Clock;
  config: { authSecret: string };
}

/**
 * An active member with their own memorial page, written straight to the database so that
 * tests of other areas do not depend on the registration flow (which has its own tests).
 */
export async function createMember(
  t: MemberFactory,
  fields: Partial<typeof users.$inferInsert> = {},
): Promise<TestMember> {
  const db = t.ctx.database.db;
  const email = fields.email ?? `member-${randomUUID()}@example.jp`;
  const [user] = await db
    .insert(users)
    .values({
      email,
      username: fields.username ?? email.split('@')[0]!,
      lastName: '山田',
      firstName: '太郎',
      lastNameKana: 'やまだ',
      firstNameKana: 'たろう',
      nameReading: 'やまだたろう山田太郎',
      status: 'active',
      activatedAt: t.clock.now(),
      ...fields,
    })
    .returning({ id: users.id });
  const [page] = await db
    .insert(memorialPages)
    .values({
      ownerUserId: user!.id,
      type: 'self',
      lastName: fields.lastName ?? '山田',
      firstName: fields.firstName ?? '太郎',
      createdBy: user!.id,
    })
    .returning({ id: memorialPages.id });
  await db
    .insert(memorialPageMembers)
    .values({ memorialPageId: page!.id, userId: user!.id, role: 'admin' });
  return {
    id: user!.id,
    email,
    memorialPageId: page!.id,
    token: await issueAccessToken(user!.id, t.config.authSecret, t.clock),
  };
}

/** Connects two members both ways, each with the relationship it chose. */
export async function connectMembers(
  t: TestApp,
  a: TestMember,
  b: TestMember,
  relationship: Relationship = 'friend',
): Promise<void> {
  // Connected at the app's clock, which a test may have moved (the database's now() is not).
  const createdAt = t.clock.now();
  await t.ctx.database.db.insert(connections).values([
    { userId: a.id, otherUserId: b.id, relationship, createdAt },
    { userId: b.id, otherUserId: a.id, relationship, createdAt },
  ]);
}
