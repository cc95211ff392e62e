import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  connections,
  letterDeliveries,
  timeCapsuleLetterAdmins,
  timeCapsuleLetterRecipients,
  timeCapsuleLetters,
  users,
} from '../../db/schema';
import { ApiError, invalid, notFound, type FieldError } from '../../http/errors';
import { OBJECT_NAME_PATTERN, type ObjectStore } from '../../storage/objectStore';
import type { Clock } from '../clock';
import { registerUploadedImage } from '../memorial/images';
import {
  parseJapanDateTime,
  type LetterEnvelope,
  type LetterInput,
  type PersonName,
  type ReceivedLetter,
  type UnsentLetter,
} from '../../../src/validation/timecapsule';
import { japanMorningOf } from './rules';

type Letter = typeof timeCapsuleLetters.$inferSelect;

const conflictDelivered = () =>
  new ApiError(409, 'letter_delivered', 'a delivered letter can no longer be changed');

/** The writer's connections among `userIds`. */
async function connectedAmong(db: Db, writerId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ id: connections.otherUserId })
    .from(connections)
    .where(and(eq(connections.userId, writerId), inArray(connections.otherUserId, userIds)));
  return new Set(rows.map((row) => row.id));
}

/**
 * The rules of a letter that need the server: connections, photo names, a future send time.
 * Once those hold, each photo new to the letter (not in `keptPhotos`) is registered like a
 * memorial upload: a presigned PUT cannot cap size or type, so the bytes are checked here and
 * stored again under their real image type (422 on `photo_names.<index>` otherwise).
 */
async function checkLetter(
  db: Db,
  clock: Clock,
  store: ObjectStore,
  writerId: string,
  input: LetterInput,
  keptPhotos: string[] = [],
) {
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
  for (const [index, name] of input.photo_names.entries()) {
    if (!keptPhotos.includes(name))
      await registerUploadedImage(store, name, `photo_names.${index}`);
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
  db: Db,
  clock: Clock,
  store: ObjectStore,
  writerId: string,
  input: LetterInput,
): Promise<string> {
  await checkLetter(db, clock, store, writerId, input);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [letter] = await tx
      .insert(timeCapsuleLetters)
      .values({ senderUserId: writerId, createdAt: now, ...letterColumns(input, now) })
      .returning({ id: timeCapsuleLetters.id });
    await insertPeople(tx as unknown as Db, letter!.id, input);
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
  db: Db,
  clock: Clock,
  store: ObjectStore,
  writerId: string,
  letterId: string,
  input: LetterInput,
): Promise<void> {
  await db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const { photoNames } = await lockUnsentLetter(txDb, writerId, letterId);
    await checkLetter(txDb, clock, store, writerId, input, photoNames);
    await tx
      .update(timeCapsuleLetters)
      .set(letterColumns(input, clock.now()))
      .where(eq(timeCapsuleLetters.id, letterId));
    await tx
      .delete(timeCapsuleLetterRecipients)
      .where(eq(timeCapsuleLetterRecipients.letterId, letterId));
    await tx.delete(timeCapsuleLetterAdmins).where(eq(timeCapsuleLetterAdmins.letterId, letterId));
    await insertPeople(txDb, letterId, input);
  });
}

export async function deleteLetter(db: Db, writerId: string, letterId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUnsentLetter(tx as unknown as Db, writerId, letterId);
    await tx.delete(timeCapsuleLetters).where(eq(timeCapsuleLetters.id, letterId));
  });
}

/*
 * The names on an envelope come from correlated subqueries, so that a list of a thousand
 * letters is one query: recipients (a member's current name, or the name written for someone
 * not yet a member) and admins, each in the order the writer gave. They name the outer table
 * `time_capsule_letters`, which every caller selects from without an alias.
 */
const receiverNames = sql<PersonName[]>`(
  select coalesce(json_agg(json_build_object(
    'firstName', coalesce(ru.first_name, r.first_name, ''),
    'lastName', coalesce(ru.last_name, r.last_name, '')) order by r.position), '[]'::json)
  from time_capsule_letter_recipients r left join users ru on ru.id = r.user_id
  where r.letter_id = time_capsule_letters.id)`;
const adminNames = sql<PersonName[]>`(
  select coalesce(json_agg(json_build_object(
    'firstName', au.first_name, 'lastName', au.last_name) order by a.position), '[]'::json)
  from time_capsule_letter_admins a join users au on au.id = a.user_id
  where a.letter_id = time_capsule_letters.id)`;

const envelopeColumns = {
  id: timeCapsuleLetters.id,
  title: timeCapsuleLetters.title,
  rule: timeCapsuleLetters.rule,
  sendAt: timeCapsuleLetters.sendAt,
  dueAt: timeCapsuleLetters.dueAt,
  createdAt: timeCapsuleLetters.createdAt,
  updatedAt: timeCapsuleLetters.updatedAt,
  receivers: receiverNames,
  admins: adminNames,
};

type EnvelopeRow = Pick<Letter, 'id' | 'title' | 'rule' | 'sendAt' | 'dueAt' | 'createdAt'> & {
  receivers: PersonName[];
  admins: PersonName[];
};

function toEnvelope(row: EnvelopeRow): LetterEnvelope {
  return {
    timeCapsuleLetterId: row.id,
    receiverFirstName: row.receivers[0]?.firstName ?? '',
    receiverLastName: row.receivers[0]?.lastName ?? '',
    receivers: row.receivers,
    title: row.title,
    sendDate: (row.sendAt ?? row.dueAt)?.toISOString() ?? null,
    event: row.rule === 'date' ? null : row.rule,
    createdAt: row.createdAt.toISOString(),
    adminFirstNames: row.admins.map((admin) => admin.firstName),
    adminLastNames: row.admins.map((admin) => admin.lastName),
  };
}

/** One letter's envelope (the letter exists). */
export async function letterEnvelope(db: Db, letterId: string): Promise<LetterEnvelope> {
  const [row] = await db
    .select(envelopeColumns)
    .from(timeCapsuleLetters)
    .where(eq(timeCapsuleLetters.id, letterId));
  return toEnvelope(row!);
}

/** GET /v1/time_capsule_letter/get_unsent_letters: the caller's letters not yet delivered. */
export async function listUnsentLetters(db: Db, userId: string): Promise<UnsentLetter[]> {
  const rows = await db
    .select(envelopeColumns)
    .from(timeCapsuleLetters)
    .where(and(eq(timeCapsuleLetters.senderUserId, userId), isNull(timeCapsuleLetters.deliveredAt)))
    .orderBy(desc(timeCapsuleLetters.updatedAt), asc(timeCapsuleLetters.id));
  return rows.map((row) => ({ ...toEnvelope(row), updatedAt: row.updatedAt.toISOString() }));
}

/** GET /v1/time_capsule_letter/get_admin_letters: letters the caller manages, envelope only. */
export async function listAdminLetters(db: Db, userId: string): Promise<LetterEnvelope[]> {
  const rows = await db
    .select(envelopeColumns)
    .from(timeCapsuleLetterAdmins)
    .innerJoin(timeCapsuleLetters, eq(timeCapsuleLetters.id, timeCapsuleLetterAdmins.letterId))
    .where(eq(timeCapsuleLetterAdmins.userId, userId))
    .orderBy(desc(timeCapsuleLetters.createdAt), asc(timeCapsuleLetters.id));
  return rows.map(toEnvelope);
}

/**
 * GET /v1/time_capsule_letter/get_received_letters: letters delivered to the caller, newest
 * delivery first. Also the "delivered letters for recipient" hook for notifications.
 */
export async function listReceivedLetters(db: Db, userId: string): Promise<ReceivedLetter[]> {
  const rows = await db
    .select({
      timeCapsuleLetterId: timeCapsuleLetters.id,
      senderFirstName: users.firstName,
      senderLastName: users.lastName,
      title: timeCapsuleLetters.title,
      createdAt: timeCapsuleLetters.createdAt,
      deliveredAt: letterDeliveries.deliveredAt,
      openedAt: letterDeliveries.openedAt,
      late: letterDeliveries.late,
    })
    .from(letterDeliveries)
    .innerJoin(timeCapsuleLetters, eq(timeCapsuleLetters.id, letterDeliveries.letterId))
    .innerJoin(users, eq(users.id, timeCapsuleLetters.senderUserId))
    .where(eq(letterDeliveries.recipientUserId, userId))
    .orderBy(desc(letterDeliveries.deliveredAt), asc(timeCapsuleLetters.id));
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt.toISOString(),
    openedAt: row.openedAt?.toISOString() ?? null,
  }));
}
