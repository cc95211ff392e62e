import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/rows';
import { keptAnswersPer, type KeptBody } from '../keptAnswers';

export type LetterList = 'unsent' | 'admin' | 'received';

interface KeptAnswer extends KeptBody {
  /** The fingerprint of every row the answer was made from (see `listStamp`). */
  stamp: string;
}

/** Memory for kept answers per instance; the least recently used leave first past it. */
export const KEPT_LETTER_LIST_BYTES = 32 * 1024 * 1024;

/** Per instance: each application has its own database object. */
const storeOf = keptAnswersPer<Db, KeptAnswer>(KEPT_LETTER_LIST_BYTES);

/**
 * One row version's share of a fingerprint: its count and a 64-bit hash of its `xmin` (the
 * transaction that wrote this version of the row). Every insert and every update writes a
 * new row version with the writing transaction's id, and a delete removes one, so any
 * change to a row the answer is made from changes the count or the sum of hashes.
 */
const rowVersions = (alias: string) =>
  sql.raw(
    `count(${alias}.xmin)::text || '.' || coalesce(sum(hashint8extended(${alias}.xmin::text::bigint, 0)), 0)::text`,
  );

const joinStamps = (...parts: SQL[]) => sql.join(parts, sql.raw(` || ':' || `));

/** The recipients' and admins' names (users for members) of the letters `letters` picks. */
function namesStamp(letters: SQL): SQL {
  return sql`(select ${joinStamps(rowVersions('r'), rowVersions('u'))}
      from time_capsule_letter_recipients r left join users u on u.id = r.user_id
      where r.letter_id in (${letters}))
    || ':' || (select ${joinStamps(rowVersions('a'), rowVersions('u'))}
      from time_capsule_letter_admins a join users u on u.id = a.user_id
      where a.letter_id in (${letters}))`;
}

/**
 * A fingerprint of every row version a list is made from, for the caller `userId`: the
 * letters, their recipients and admins with the members' names (unsent and admin lists),
 * the deliveries with their letters and senders (received list). One aggregate query, no
 * rows to the client: a fraction of what making the list costs, on either database.
 */
export function listStamp(list: LetterList, userId: string): SQL {
  switch (list) {
    case 'unsent': {
      const letters = sql`select id from time_capsule_letters
        where sender_user_id = ${userId} and delivered_at is null`;
      return sql`select (select ${rowVersions('l')} from time_capsule_letters l
          where l.sender_user_id = ${userId} and l.delivered_at is null)
        || ':' || ${namesStamp(letters)} as stamp`;
    }
    case 'admin': {
      const letters = sql`select letter_id from time_capsule_letter_admins where user_id = ${userId}`;
      return sql`select (select ${joinStamps(rowVersions('m'), rowVersions('l'))}
          from time_capsule_letter_admins m join time_capsule_letters l on l.id = m.letter_id
          where m.user_id = ${userId})
        || ':' || ${namesStamp(letters)} as stamp`;
    }
    case 'received':
      return sql`select ${joinStamps(rowVersions('d'), rowVersions('l'), rowVersions('u'))} as stamp
        from letter_deliveries d
          join time_capsule_letters l on l.id = d.letter_id
          join users u on u.id = l.sender_user_id
        where d.recipient_user_id = ${userId}`;
  }
}

/** A CTE's row versions (column `v`): their count and the sum of their hashes. */
const versionsOf = (set: string) =>
  sql.raw(
    `(select count(v)::text || '.' || coalesce(sum(hashint8extended(v, 0)), 0)::text from ${set})`,
  );
const version = (alias: string) => sql.raw(`${alias}.xmin::text::bigint as v`);

/**
 * The unsent list's fingerprint, shaped for a database without planner statistics. PGlite
 * has no autovacuum, so its tables are never analysed: without row counts the planner joins
 * the recipients and admins of the writer's letters letter by letter (18–20 ms for 1,000
 * letters). Here the letters' ids are gathered into one array, each table is read once with
 * `= any(…)`, and every member named is read once (10–11 ms). The same shape did worse for
 * the admin list (16 ms against 9), and for this one on analysed PostgreSQL (9 ms against 3.5):
 * they keep the joins of `listStamp`.
 */
export function listStampWithoutStatistics(list: LetterList, userId: string): SQL {
  if (list !== 'unsent') return listStamp(list, userId);
  return sql`with l as materialized (select l.id, ${version('l')} from time_capsule_letters l
      where l.sender_user_id = ${userId} and l.delivered_at is null),
    ids as materialized (select array(select id from l) as ids),
    r as materialized (select r.user_id, ${version('r')} from time_capsule_letter_recipients r
      where r.letter_id = any((select ids from ids)::uuid[])),
    a as materialized (select a.user_id, ${version('a')} from time_capsule_letter_admins a
      where a.letter_id = any((select ids from ids)::uuid[])),
    u as (select ${version('u')} from users u
      where u.id = any(array(select user_id from r union select user_id from a)))
    select ${versionsOf('l')} || ':' || ${versionsOf('r')} || ':' || ${versionsOf('a')}
      || ':' || ${versionsOf('u')} as stamp`;
}

/**
 * One of the caller's letter lists as the JSON of the answer, made once and handed out
 * again while nothing it is made from has changed: a list of a thousand letters is some
 * 250 kB, and its three queries, their rows and the serialisation were nearly all of the
 * call's time (docs/timecapsule.md, "Kept list answers").
 *
 * Current means the fingerprint of the rows (`listStamp`), read before the list is made,
 * is the one the answer was kept under. It is read on every call, from the database that
 * every instance shares, so a change made anywhere (a letter written, edited, delivered,
 * opened or deleted, a member's new name, a member who left) is in the very next read
 * everywhere; instances keep nothing that another must tell them about. The list is read
 * after the fingerprint, so an answer is never older than the fingerprint it is kept under.
 * The lists are the caller's own (the bearer is checked before), kept per caller.
 */
export async function keptLetterList(
  db: Db,
  kind: 'pglite' | 'postgres',
  list: LetterList,
  userId: string,
  make: () => Promise<unknown>,
): Promise<Buffer> {
  const store = storeOf(db);
  const key = `${list}:${userId}`;
  const [row] = await queryRows<{ stamp: string }>(
    db,
    kind === 'pglite' ? listStampWithoutStatistics(list, userId) : listStamp(list, userId),
  );
  const stamp = row!.stamp;
  const kept = store.use(key);
  if (kept && kept.stamp === stamp) return kept.body;
  const body = Buffer.from(JSON.stringify(await make()));
  store.keep(key, { stamp, body });
  return body;
}
