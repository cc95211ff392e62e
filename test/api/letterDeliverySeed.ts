import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/database';
import { queryRows } from '../../server/db/rows';

/*
 * Set-based seeding of many time-capsule letters, shared by the delivery tests that run real
 * server processes and by bench/timecapsule.ts (so it has no test-runner imports).
 */

/** Active members named after `usernames` (username@example.jp); answers their ids in order. */
export async function seedMembers(db: Db, usernames: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const username of usernames) {
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`insert into users (email, username, last_name, first_name, status)
          values (${`${username}@example.jp`}, ${username}, '佐藤', ${username}, 'active')
          returning id`,
    );
    ids.push(row!.id);
  }
  return ids;
}

export interface LetterSeed {
  writerId: string;
  readerId: string;
  /** A letter admin named on every letter. */
  adminId?: string;
  count: number;
  /** When the letters fall due (a dated letter's send time). */
  dueAt: Date;
}

/** `count` letters from the writer to the reader, written with set-based SQL. */
export async function seedLetters(db: Db, seed: LetterSeed): Promise<void> {
  await db.execute(sql`
    with letters as (
      insert into time_capsule_letters (sender_user_id, title, body, rule, send_at, due_at)
      select ${seed.writerId}, '手紙 ' || n, '本文 ' || n, 'date', ${seed.dueAt}, ${seed.dueAt}
      from generate_series(1, ${seed.count}) as n
      returning id
    ), recipients as (
      insert into time_capsule_letter_recipients (letter_id, position, user_id)
      select id, 0, ${seed.readerId} from letters
    )
    insert into time_capsule_letter_admins (letter_id, user_id, position)
    select id, ${seed.adminId ?? null}::uuid, 0 from letters where ${seed.adminId ?? null}::uuid is not null`);
}

/** A writer, a reader and `count` letters from one to the other, all due at `dueAt`. */
export async function seedDueLetters(
  db: Db,
  count: number,
  dueAt: Date,
): Promise<{ readerId: string }> {
  const [writerId, readerId] = (await seedMembers(db, ['writer', 'reader'])) as [string, string];
  await seedLetters(db, { writerId, readerId, count, dueAt });
  return { readerId };
}
