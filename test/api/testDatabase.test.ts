/**
 * The API suite's databases: each test file's is as the template left it, whoever held it
 * before, and one its holder closed answers no more calls.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { manualClock } from '../../server/lib/clock';
import { createMember } from '../support/members';
import {
  createTestDatabase,
  pgliteDatabasesOpened,
  testDatabaseKind,
} from '../support/testDatabase';

const config = { authSecret: 'a-secret-of-at-least-thirty-two-characters' };

describe('a test database', () => {
  it('refuses every call once its holder has closed it', async () => {
    const database = await createTestDatabase();
    await database.close();
    await expect(database.db.execute(sql`select 1`)).rejects.toThrow();
    expect(await database.ping()).toBe(false);
  });

  it("holds none of the last holder's rows, and none of its listeners hears it", async () => {
    const first = await createTestDatabase();
    await createMember({ ctx: { database: first }, clock: manualClock(), config });
    const heard: string[] = [];
    await first.listen('session_ended', {
      onMessage: (payload) => heard.push(payload),
      onListening: () => undefined,
    });
    await first.close();
    const opened = pgliteDatabasesOpened();

    const next = await createTestDatabase();
    // On PGlite the next file's database is the same engine, emptied: none was opened for it.
    if (testDatabaseKind() === 'pglite') expect(pgliteDatabasesOpened()).toBe(opened);
    expect(await next.db.select().from(users)).toEqual([]);
    const heardNext: string[] = [];
    await next.listen('session_ended', {
      onMessage: (payload) => heardNext.push(payload),
      onListening: () => undefined,
    });
    await next.withSession((run) => run(`NOTIFY session_ended, 'after'`));
    await expect.poll(() => heardNext).toEqual(['after']);
    expect(heard).toEqual([]);
    await next.close();
  });
});
