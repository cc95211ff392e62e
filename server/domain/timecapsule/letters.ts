import { and, count, eq, gt, inArray, min, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { createKeyBatcher } from '../../db/keyBatcher';
import { preparedPerDatabase } from '../../db/prepared';
import { queryRows } from '../../db/rows';
import {
  connections,
  letterGuestAddresses,
  timeCapsuleLetterAdmins,
  timeCapsuleLetterRecipients,
  timeCapsuleLetters,
  users,
} from '../../db/schema';
import { DomainError, invalid, notFound, type FieldError } from '../errors';
import { afterNewestFirst, decodeCursor, keyParts, pageFrom } from '../listPages';
import { OBJECT_NAME_PATTERN } from '../../storage/objectStore';
import type { Clock } from '../../lib/clock';
import { claimUpload, releaseUploads } from '../uploads/uploads';
import { parseJapanDateTime, type LetterInput } from '../../../contract/rules/timecapsule';
import type { Served } from '../../../contract/endpoint';
import type {
  LetterEnvelope as WireEnvelope,
  PersonName,
  ReceivedLetter as WireReceivedLetter,
  UnsentLetter as WireUnsentLetter,
} from '../../../contract/timecapsule';
import { japanMorningOf } from './rules';
import type { TimecapsuleDeps } from './timecapsuleDeps';

const conflictDelivered = () =>
  new DomainError('conflict', 'letter_delivered', 'a delivered letter can no longer be changed');

/** The writer's connections among `userIds`. */
async function connectedAmong(db: Db, writerId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ id: connections.otherUserId })
    .from(connections)
    .where(and(eq(connections.userId, writerId), inArray(connections.otherUserId, userIds)));
  return new Set(rows.map((row) => row.id));
}

/** The rules of a letter that need the server: connections, photo names, a future send time. */
async function checkLetter(db: Db, clock: Clock, writerId: string, input: LetterInput) {
  const errors: FieldError[] = [];
  const memberIds = input.recipients.flatMap((r) => (r.kind === 'member' ? [r.user_id] : []));
  const connected = await connectedAmong(db, writerId, [...memberIds, ...input.admin_user_ids]);
  const seenRecipients = new Set<string>();
  input.recipients.forEach((recipient, index) => {
    const key = recipient.kind === 'member' ? recipient.user_id : recipient.email.toLowerCase();
    if (seenRecipients.has(key)) errors.push({ field: `recipients.${index}`, code: 'duplicate' });
    seenRecipients.add(key);
    if (recipient.kind === 'member' && !connected.has(recipient.user_id))
      errors.push({ field: `recipients.${index}.user_id`, code: 'not_connected' });
  });
  input.admin_user_ids.forEach((adminId, index) => {
    if (!connected.has(adminId))
      errors.push({ field: `admin_user_ids.${index}`, code: 'not_connected' });
    if (input.admin_user_ids.indexOf(adminId) !== index)
      errors.push({ field: `admin_user_ids.${index}`, code: 'duplicate' });
  });
  input.photo_names.forEach((name, index) => {
    if (!OBJECT_NAME_PATTERN.test(name))
      errors.push({ field: `photo_names.${index}`, code: 'photo_invalid' });
  });
  const now = clock.now();
  const { delivery } = input;
  if (delivery.rule === 'date' && parseJapanDateTime(delivery.send_at)! <= now)
    errors.push({ field: 'delivery.send_at', code: 'must_be_future' });
  if (delivery.rule === 'date_after_death' && japanMorningOf(delivery.after_death_date) <= now)
    errors.push({ field: 'delivery.after_death_date', code: 'must_be_future' });
  if (errors.length > 0) throw invalid(errors);
}

/**
 * Claims each photo new to the letter (not in `keptPhotos`): the writer's own checked upload,
 * used by nothing else (422 on `photo_names.<index>` otherwise).
 */
async function claimLetterPhotos(
  db: Db,
  writerId: string,
  letterId: string,
  photoNames: string[],
  keptPhotos: string[] = [],
) {
  for (const [index, name] of photoNames.entries()) {
    if (keptPhotos.includes(name)) continue;
    await claimUpload(db, {
      objectName: name,
      ownerUserId: writerId,
      use: { kind: 'letter_photo', id: letterId },
      field: `photo_names.${index}`,
    });
  }
}

/** The columns a letter input sets (the delivery rule and, for dated letters, its due time). */
function letterColumns(input: LetterInput, now: Date) {
  const { delivery } = input;
  const sendAt = delivery.rule === 'date' ? parseJapanDateTime(delivery.send_at)! : null;
  return {
    title: input.title,
    body: input.body,
    photoNames: input.photo_names,
    rule: delivery.rule,
    sendAt,
    delayDays: delivery.rule === 'death' ? delivery.delay_days : null,
    anniversaryYears: delivery.rule === 'death_anniversary' ? delivery.anniversary_years : null,
    afterDeathDate: delivery.rule === 'date_after_death' ? delivery.after_death_date : null,
    // Death-triggered letters wait for releaseLettersOnDeath to set their due time.
    dueAt: sendAt,
    updatedAt: now,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Notes the letter's non-member addresses the writer has not used before, refusing with 429
 * when they would take the writer past `guestAddressesPerDay` new addresses in the last 24
 * hours. Writers are taken one at a time (a transaction lock on the writer), so two letters
 * at once cannot both fit under the limit. `db` is the letter's transaction.
 */
async function noteGuestAddresses(
  { db, clock, texts, guestAddressesPerDay: perDay }: TimecapsuleDeps,
  writerId: string,
  input: LetterInput,
): Promise<void> {
  const emails = [
    ...new Set(
      input.recipients.flatMap((r) => (r.kind === 'guest' ? [r.email.toLowerCase()] : [])),
    ),
  ];
  if (emails.length === 0) return;
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtext('letter_guests'), hashtext(${writerId}))`,
  );
  const known = await db
    .select({ email: letterGuestAddresses.email })
    .from(letterGuestAddresses)
    .where(
      and(eq(letterGuestAddresses.userId, writerId), inArray(letterGuestAddresses.email, emails)),
    );
  const knownEmails = new Set(known.map((row) => row.email));
  const fresh = emails.filter((email) => !knownEmails.has(email));
  if (fresh.length === 0) return;
  const now = clock.now();
  const since = new Date(now.getTime() - DAY_MS);
  const [recent] = await db
    .select({ used: count(), oldest: min(letterGuestAddresses.firstUsedAt) })
    .from(letterGuestAddresses)
    .where(
      and(eq(letterGuestAddresses.userId, writerId), gt(letterGuestAddresses.firstUsedAt, since)),
    );
  const used = recent?.used ?? 0;
  if (used + fresh.length > perDay) {
    const oldest = recent?.oldest ? new Date(recent.oldest).getTime() : now.getTime();
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + DAY_MS - now.getTime()) / 1000));
    const t = await texts();
    const refusal = t('timecapsule-error-guest_addresses_per_day', { limit: String(perDay) });
    throw new DomainError('too_many_attempts', 'guest_addresses_per_day', refusal, {
      retryAfterSeconds,
    });
  }
  await db
    .insert(letterGuestAddresses)
    .values(fresh.map((email) => ({ userId: writerId, email, firstUsedAt: now })));
}

async function insertPeople(db: Db, letterId: string, input: LetterInput): Promise<void> {
  await db.insert(timeCapsuleLetterRecipients).values(
    input.recipients.map((recipient, position) =>
      recipient.kind === 'member'
        ? { letterId, position, userId: recipient.user_id }
        : {
            letterId,
            position,
            lastName: recipient.last_name,
            firstName: recipient.first_name,
            email: recipient.email,
          },
    ),
  );
  if (input.admin_user_ids.length > 0)
    await db
      .insert(timeCapsuleLetterAdmins)
      .values(input.admin_user_ids.map((userId, position) => ({ letterId, userId, position })));
}

export async function createLetter(
  deps: TimecapsuleDeps,
  writerId: string,
  input: LetterInput,
): Promise<string> {
  const { db, clock } = deps;
  await checkLetter(db, clock, writerId, input);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [letter] = await tx
      .insert(timeCapsuleLetters)
      .values({ senderUserId: writerId, createdAt: now, ...letterColumns(input, now) })
      .returning({ id: timeCapsuleLetters.id });
    await claimLetterPhotos(tx, writerId, letter!.id, input.photo_names);
    await noteGuestAddresses({ ...deps, db: tx }, writerId, input);
    await insertPeople(tx, letter!.id, input);
    return letter!.id;
  });
}

/**
 * Locks the writer's letter for a change. The delivery loop claims letters with SKIP LOCKED
 * and sets delivered_at in its claiming transaction, so a letter is either changed before its
 * delivery or refused with 409 after it, never both.
 */
async function lockUnsentLetter(
  db: Db,
  writerId: string,
  letterId: string,
): Promise<{ photoNames: string[] }> {
  const [letter] = await db
    .select({
      deliveredAt: timeCapsuleLetters.deliveredAt,
      photoNames: timeCapsuleLetters.photoNames,
    })
    .from(timeCapsuleLetters)
    .where(and(eq(timeCapsuleLetters.id, letterId), eq(timeCapsuleLetters.senderUserId, writerId)))
    .for('update');
  if (!letter) throw notFound('letter');
  if (letter.deliveredAt) throw conflictDelivered();
  return { photoNames: letter.photoNames };
}

export async function updateLetter(
  deps: TimecapsuleDeps,
  writerId: string,
  letterId: string,
  input: LetterInput,
): Promise<void> {
  const { db, clock, store } = deps;
  const { photoNames } = await db.transaction(async (tx) => {
    const kept = await lockUnsentLetter(tx, writerId, letterId);
    await checkLetter(tx, clock, writerId, input);
    await claimLetterPhotos(tx, writerId, letterId, input.photo_names, kept.photoNames);
    await tx
      .update(timeCapsuleLetters)
      .set(letterColumns(input, clock.now()))
      .where(eq(timeCapsuleLetters.id, letterId));
    await tx
      .delete(timeCapsuleLetterRecipients)
      .where(eq(timeCapsuleLetterRecipients.letterId, letterId));
    await tx.delete(timeCapsuleLetterAdmins).where(eq(timeCapsuleLetterAdmins.letterId, letterId));
    await noteGuestAddresses({ ...deps, db: tx }, writerId, input);
    await insertPeople(tx, letterId, input);
    return kept;
  });
  const removed = photoNames.filter((name) => !input.photo_names.includes(name));
  await releaseUploads({ db, store }, { kind: 'letter_photo', id: letterId }, removed);
}

/** Deletes an unsent letter and its photos. */
export async function deleteLetter(
  { db, store }: TimecapsuleDeps,
  writerId: string,
  letterId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUnsentLetter(tx, writerId, letterId);
    await tx.delete(timeCapsuleLetters).where(eq(timeCapsuleLetters.id, letterId));
  });
  await releaseUploads({ db, store }, { kind: 'letter_photo', id: letterId });
}

/**
 * A time as the answers write it (UTC ISO-8601 with milliseconds, what `toISOString` gives),
 * made by PostgreSQL: turning a thousand rows' times into `Date`s only to format them again
 * was a large share of a list's time in Node. Both drop the microseconds, so the text is
 * the same.
 */
const isoTime = (time: SQL) =>
  sql<string>`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The fields of an envelope that come from the letter's own row. */
interface EnvelopeRow {
  timeCapsuleLetterId: string;
  title: string;
  sendDate: string | null;
  event: LetterEnvelope['event'];
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
}

/** The letters that `fromWhere` picks: a FROM naming time_capsule_letters `l`, and more. */
const envelopeRows = (db: Db, fromWhere: SQL, sortKey?: SQL) =>
  queryRows<EnvelopeRow & { sortKey?: string }>(
    db,
    sql`select l.id as "timeCapsuleLetterId", l.title,
        ${isoTime(sql`coalesce(l.send_at, l.due_at)`)} as "sendDate",
        nullif(l.rule, 'date') as "event",
        ${isoTime(sql`l.created_at`)} as "createdAt",
        ${isoTime(sql`l.updated_at`)} as "updatedAt",
        ${isoTime(sql`l.delivered_at`)} as "deliveredAt"
        ${sortKey ? sql`, ${sortKey}::text as "sortKey"` : sql``}
      ${fromWhere}`,
  );

type NameRow = PersonName & { letterId: string };
type LetterEnvelope = Served<WireEnvelope>;
type UnsentLetter = Served<WireUnsentLetter>;
type ReceivedLetter = Served<WireReceivedLetter>;

/** Names by letter; each letter's in the order of the rows. */
function namesByLetter(rows: NameRow[]): Map<string, PersonName[]> {
  const names = new Map<string, PersonName[]>();
  for (const { letterId, firstName, lastName } of rows) {
    const list = names.get(letterId);
    if (list) list.push({ firstName, lastName });
    else names.set(letterId, [{ firstName, lastName }]);
  }
  return names;
}

/**
 * The envelopes of `rows`, in their order. Their names come from two flat queries for the
 * whole list, merged here: recipients (a member's current name, or the name written for
 * someone not yet a member) and admins, each in the order the writer gave. Per-letter
 * subqueries would run two thousand times for a list of a thousand letters. The names are read after
 * the letters, and a letter is written with its names in one transaction, so every listed
 * letter finds its names.
 */
async function toEnvelopes(db: Db, rows: EnvelopeRow[]): Promise<LetterEnvelope[]> {
  if (rows.length === 0) return [];
  const letterIds = sql`any(${sql.param(rows.map((row) => row.timeCapsuleLetterId))}::uuid[])`;
  const receivers = namesByLetter(
    await queryRows<NameRow>(
      db,
      sql`select r.letter_id as "letterId",
          coalesce(u.first_name, r.first_name, '') as "firstName",
          coalesce(u.last_name, r.last_name, '') as "lastName"
        from time_capsule_letter_recipients r left join users u on u.id = r.user_id
        where r.letter_id = ${letterIds} order by r.position`,
    ),
  );
  const admins = namesByLetter(
    await queryRows<NameRow>(
      db,
      sql`select a.letter_id as "letterId", u.first_name as "firstName", u.last_name as "lastName"
        from time_capsule_letter_admins a join users u on u.id = a.user_id
        where a.letter_id = ${letterIds} order by a.position`,
    ),
  );
  return rows.map((row) => {
    const letterReceivers = receivers.get(row.timeCapsuleLetterId) ?? [];
    const letterAdmins = admins.get(row.timeCapsuleLetterId) ?? [];
    return {
      timeCapsuleLetterId: row.timeCapsuleLetterId,
      receiverFirstName: letterReceivers[0]?.firstName ?? '',
      receiverLastName: letterReceivers[0]?.lastName ?? '',
      receivers: letterReceivers,
      title: row.title,
      sendDate: row.sendDate,
      event: row.event,
      createdAt: row.createdAt,
      adminFirstNames: letterAdmins.map((admin) => admin.firstName),
      adminLastNames: letterAdmins.map((admin) => admin.lastName),
    };
  });
}

/** One letter's envelope (the letter exists). */
export async function letterEnvelope(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  letterId: string,
): Promise<LetterEnvelope> {
  const rows = await envelopeRows(db, sql`from time_capsule_letters l where l.id = ${letterId}`);
  const [envelope] = await toEnvelopes(db, rows);
  return envelope!;
}

/*
 * Which letters each of the three lists holds and in what order, for the whole list and for
 * its pages alike: a page is the rows after its cursor's key, one more than it shows (to know
 * whether more follow).
 */

interface ListPageQuery {
  after: string[] | undefined;
  limit: number;
}

/** "After the key" of `time` and `id` when a page has a cursor, else nothing. */
const afterCursor = (time: SQL, id: SQL, page: ListPageQuery | undefined) =>
  page?.after ? sql`and ${afterNewestFirst(time, id, page.after)}` : sql``;

const pageLimit = (page: ListPageQuery | undefined) =>
  page ? sql`limit ${page.limit + 1}` : sql``;

/** The member's letters not yet delivered, last changed first. */
const unsentLetters = (userId: string, page?: ListPageQuery) =>
  sql`from time_capsule_letters l
      where l.sender_user_id = ${userId} and l.delivered_at is null
        ${afterCursor(sql`l.updated_at`, sql`l.id`, page)}
      order by l.updated_at desc, l.id ${pageLimit(page)}`;

/** The letters the member administers, newest first. */
const adminLetters = (userId: string, page?: ListPageQuery) =>
  sql`from time_capsule_letter_admins a join time_capsule_letters l on l.id = a.letter_id
      where a.user_id = ${userId} ${afterCursor(sql`l.created_at`, sql`l.id`, page)}
      order by l.created_at desc, l.id ${pageLimit(page)}`;

/** The letters delivered to the member, newest delivery first, with their senders' names. */
const receivedRows = (db: Db, userId: string, page?: ListPageQuery) =>
  queryRows<ReceivedLetter & { sortKey?: string }>(
    db,
    sql`select l.id as "timeCapsuleLetterId", u.first_name as "senderFirstName",
        u.last_name as "senderLastName", l.title,
        ${isoTime(sql`l.created_at`)} as "createdAt",
        ${isoTime(sql`d.delivered_at`)} as "deliveredAt",
        ${isoTime(sql`d.opened_at`)} as "openedAt",
        d.late ${page ? sql`, d.delivered_at::text as "sortKey"` : sql``}
      from letter_deliveries d
        join time_capsule_letters l on l.id = d.letter_id
        join users u on u.id = l.sender_user_id
      where d.recipient_user_id = ${userId} ${afterCursor(sql`d.delivered_at`, sql`l.id`, page)}
      order by d.delivered_at desc, l.id ${pageLimit(page)}`,
  );

/** Unsent letters are envelopes with when they last changed. */
async function toUnsentLetters(db: Db, rows: EnvelopeRow[]): Promise<UnsentLetter[]> {
  const envelopes = await toEnvelopes(db, rows);
  return envelopes.map((envelope, index) =>
    Object.assign(envelope, { updatedAt: rows[index]!.updatedAt }),
  );
}

/** GET /v1/time_capsule_letter/get_unsent_letters: the caller's letters not yet delivered. */
export async function listUnsentLetters(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
): Promise<UnsentLetter[]> {
  return toUnsentLetters(db, await envelopeRows(db, unsentLetters(userId)));
}

/**
 * Every letter the member wrote, with when it went out: those still to go first, soonest
 * first (a death-triggered one, whose time is not known, after the dated ones), then the
 * delivered ones, latest first.
 */
export async function listWrittenLetters(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
): Promise<(LetterEnvelope & { deliveredAt: string | null })[]> {
  const rows = await envelopeRows(
    db,
    sql`from time_capsule_letters l where l.sender_user_id = ${userId}
      order by l.delivered_at is not null, coalesce(l.send_at, l.due_at) nulls last,
        l.delivered_at desc, l.created_at, l.id`,
  );
  const envelopes = await toEnvelopes(db, rows);
  return envelopes.map((envelope, index) =>
    Object.assign(envelope, { deliveredAt: rows[index]!.deliveredAt }),
  );
}

/**
 * The version of the member's three letter lists, bumped by the database with every change
 * that shows in any of them (migration 0077).
 */
export async function letterListsVersion(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
): Promise<number> {
  return (await lettersVersionOf(db)(userId)) ?? 0;
}

/*
 * Every list read asks for its member's version first, by one key with one fixed query: a
 * prepared statement, and the reads of one turn answered together (decision 422).
 */
const lettersVersionsQuery = preparedPerDatabase((db) =>
  db
    .select({ id: users.id, version: users.lettersVersion })
    .from(users)
    .where(sql`${users.id} = any(${sql.placeholder('userIds')}::uuid[])`)
    .prepare('letter_lists_versions'),
);

const lettersVersionOf = preparedPerDatabase((db) =>
  createKeyBatcher<string, number>(async (userIds) => {
    const rows = await lettersVersionsQuery(db).execute({ userIds });
    return new Map(rows.map((row) => [row.id, Number(row.version)]));
  }),
);

/** GET /v1/time_capsule_letter/get_admin_letters: letters the caller manages, envelope only. */
export async function listAdminLetters(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
): Promise<LetterEnvelope[]> {
  return toEnvelopes(db, await envelopeRows(db, adminLetters(userId)));
}

/**
 * GET /v1/time_capsule_letter/get_received_letters: letters delivered to the caller, newest
 * delivery first. Also the "delivered letters for recipient" hook for notifications.
 */
export function listReceivedLetters(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
): Promise<ReceivedLetter[]> {
  return receivedRows(db, userId);
}

/*
 * The three lists a page at a time, in the whole lists' orders (newest first, the id
 * ascending among equal times). The cursor names the list and the member, so one of another
 * list or another member is refused.
 */

const LETTER_KEY = [keyParts.timestamp, keyParts.uuid];

interface PageRequest {
  limit: number;
  cursor: string | undefined;
}

/** A page of GET /v1/time_capsule_letter/get_unsent_letters. */
export async function listUnsentLettersPage(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
  { limit, cursor }: PageRequest,
) {
  const after = decodeCursor('letters.unsent', userId, LETTER_KEY, cursor);
  const rows = await envelopeRows(db, unsentLetters(userId, { after, limit }), sql`l.updated_at`);
  const items = await toUnsentLetters(db, rows.slice(0, limit));
  return pageFrom(
    rows,
    limit,
    'letters.unsent',
    userId,
    (row) => [row.sortKey!, row.timeCapsuleLetterId],
    items,
  );
}

/** A page of GET /v1/time_capsule_letter/get_admin_letters. */
export async function listAdminLettersPage(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
  { limit, cursor }: PageRequest,
) {
  const after = decodeCursor('letters.admin', userId, LETTER_KEY, cursor);
  const rows = await envelopeRows(db, adminLetters(userId, { after, limit }), sql`l.created_at`);
  const items = await toEnvelopes(db, rows.slice(0, limit));
  return pageFrom(
    rows,
    limit,
    'letters.admin',
    userId,
    (row) => [row.sortKey!, row.timeCapsuleLetterId],
    items,
  );
}

/** A page of GET /v1/time_capsule_letter/get_received_letters. */
export async function listReceivedLettersPage(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
  { limit, cursor }: PageRequest,
) {
  const after = decodeCursor('letters.received', userId, LETTER_KEY, cursor);
  const rows = await receivedRows(db, userId, { after, limit });
  const items = rows.slice(0, limit).map(({ sortKey: _key, ...letter }): ReceivedLetter => letter);
  return pageFrom(
    rows,
    limit,
    'letters.received',
    userId,
    (row) => [row.sortKey!, row.timeCapsuleLetterId],
    items,
  );
}
