import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  letterDeliveries,
  timeCapsuleLetterAdmins,
  timeCapsuleLetterRecipients,
  timeCapsuleLetters,
  users,
} from '../../db/schema';
import { notFound } from '../errors';
import type { ObjectStore } from '../../storage/objectStore';
import type { Clock } from '../../lib/clock';
import type { Served } from '../../../contract/endpoint';
import type {
  AdminView as WireAdminView,
  LetterPhoto,
  LetterView as WireLetterView,
  RecipientView as WireRecipientView,
  WriterView as WireWriterView,
} from '../../../contract/timecapsule';
import { markLetterNotificationRead } from '../social/notifications';
import { letterEnvelope } from './letters';
import type { TimecapsuleDeps } from './timecapsuleDeps';

type Letter = typeof timeCapsuleLetters.$inferSelect;
type AdminView = Served<WireAdminView>;
type LetterView = Served<WireLetterView>;
type RecipientView = Served<WireRecipientView>;
type WriterView = Served<WireWriterView>;

async function signedPhotos(store: ObjectStore, names: string[]): Promise<LetterPhoto[]> {
  return Promise.all(
    names.map(async (name) => ({ name, url: await store.signedUrl(name, 'GET') })),
  );
}

async function writerView(db: Db, store: ObjectStore, letter: Letter): Promise<WriterView> {
  const [envelope, recipients, admins, photos] = await Promise.all([
    letterEnvelope({ db }, letter.id),
    db
      .select({
        userId: timeCapsuleLetterRecipients.userId,
        email: timeCapsuleLetterRecipients.email,
        guestFirstName: timeCapsuleLetterRecipients.firstName,
        guestLastName: timeCapsuleLetterRecipients.lastName,
        firstName: users.firstName,
        lastName: users.lastName,
        deliveredAt: letterDeliveries.deliveredAt,
        openedAt: letterDeliveries.openedAt,
        late: letterDeliveries.late,
      })
      .from(timeCapsuleLetterRecipients)
      .leftJoin(users, eq(users.id, timeCapsuleLetterRecipients.userId))
      .leftJoin(letterDeliveries, eq(letterDeliveries.recipientId, timeCapsuleLetterRecipients.id))
      .where(eq(timeCapsuleLetterRecipients.letterId, letter.id))
      .orderBy(timeCapsuleLetterRecipients.position),
    db
      .select({ userId: timeCapsuleLetterAdmins.userId })
      .from(timeCapsuleLetterAdmins)
      .where(eq(timeCapsuleLetterAdmins.letterId, letter.id))
      .orderBy(timeCapsuleLetterAdmins.position),
    signedPhotos(store, letter.photoNames),
  ]);
  return {
    ...envelope,
    role: 'writer',
    body: letter.body,
    photos,
    rule: letter.rule,
    delayDays: letter.delayDays,
    anniversaryYears: letter.anniversaryYears,
    afterDeathDate: letter.afterDeathDate,
    adminUserIds: admins.map((admin) => admin.userId),
    recipients: recipients.map((row) => ({
      kind: row.userId ? 'member' : 'guest',
      userId: row.userId,
      email: row.email,
      firstName: row.firstName ?? row.guestFirstName ?? '',
      lastName: row.lastName ?? row.guestLastName ?? '',
      deliveredAt: row.deliveredAt?.toISOString() ?? null,
      openedAt: row.openedAt?.toISOString() ?? null,
      late: row.late,
    })),
    deliveredAt: letter.deliveredAt?.toISOString() ?? null,
    updatedAt: letter.updatedAt.toISOString(),
  };
}

/**
 * Marks the caller's delivery opened (the first read only), with the notice of its delivery
 * read in the same transaction (the unread badge drops), and answers the letter.
 */
async function recipientView(
  db: Db,
  clock: Clock,
  store: ObjectStore,
  letter: Letter,
  delivery: typeof letterDeliveries.$inferSelect,
): Promise<RecipientView> {
  let openedAt = delivery.openedAt;
  if (!openedAt) {
    const now = clock.now();
    const marked = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(letterDeliveries)
        .set({ openedAt: now })
        .where(and(eq(letterDeliveries.id, delivery.id), isNull(letterDeliveries.openedAt)))
        .returning({ openedAt: letterDeliveries.openedAt });
      if (row) await markLetterNotificationRead(tx, delivery.recipientUserId!, letter.id, now);
      return row;
    });
    // A concurrent first read may have won; its time stands.
    openedAt =
      marked?.openedAt ??
      (
        await db
          .select({ openedAt: letterDeliveries.openedAt })
          .from(letterDeliveries)
          .where(eq(letterDeliveries.id, delivery.id))
      )[0]!.openedAt;
  }
  const [[sender], photos] = await Promise.all([
    db
      .select({ firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, letter.senderUserId)),
    signedPhotos(store, letter.photoNames),
  ]);
  return {
    role: 'recipient',
    timeCapsuleLetterId: letter.id,
    senderFirstName: sender?.firstName ?? '',
    senderLastName: sender?.lastName ?? '',
    title: letter.title,
    body: letter.body,
    photos,
    createdAt: letter.createdAt.toISOString(),
    dueAt: (letter.dueAt ?? delivery.deliveredAt).toISOString(),
    deliveredAt: delivery.deliveredAt.toISOString(),
    openedAt: openedAt!.toISOString(),
    late: delivery.late,
  };
}

async function adminView(db: Db, store: ObjectStore, letter: Letter): Promise<AdminView> {
  const envelope = await letterEnvelope({ db }, letter.id);
  const delivered = letter.deliveredAt !== null;
  return {
    ...envelope,
    role: 'admin',
    deliveredAt: letter.deliveredAt?.toISOString() ?? null,
    body: delivered ? letter.body : null,
    photos: delivered ? await signedPhotos(store, letter.photoNames) : [],
  };
}

/**
 * Whether the letter's photos are the member's to see, as readLetter shows them: the
 * writer's always, a recipient's and an admin's once the letter is delivered.
 */
export async function mayReadLetterPhotos(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  letterId: string,
  userId: string,
): Promise<boolean> {
  const [letter] = await db
    .select({
      senderUserId: timeCapsuleLetters.senderUserId,
      deliveredAt: timeCapsuleLetters.deliveredAt,
    })
    .from(timeCapsuleLetters)
    .where(eq(timeCapsuleLetters.id, letterId));
  if (!letter) return false;
  if (letter.senderUserId === userId) return true;
  if (!letter.deliveredAt) return false;
  const [reader] = await db
    .select({ one: letterDeliveries.id })
    .from(letterDeliveries)
    .where(
      and(eq(letterDeliveries.letterId, letterId), eq(letterDeliveries.recipientUserId, userId)),
    )
    .union(
      db
        .select({ one: timeCapsuleLetterAdmins.letterId })
        .from(timeCapsuleLetterAdmins)
        .where(
          and(
            eq(timeCapsuleLetterAdmins.letterId, letterId),
            eq(timeCapsuleLetterAdmins.userId, userId),
          ),
        ),
    )
    .limit(1);
  return reader !== undefined;
}

/**
 * GET /v1/time_capsule_letter/{id}: the writer, a recipient after delivery, or an admin see
 * their view of the letter; anyone else (a recipient before delivery included) gets 404.
 */
export async function readLetter(
  { db, clock, store }: TimecapsuleDeps,
  userId: string,
  letterId: string,
): Promise<LetterView> {
  const [letter] = await db
    .select()
    .from(timeCapsuleLetters)
    .where(eq(timeCapsuleLetters.id, letterId));
  if (!letter) throw notFound('letter');
  if (letter.senderUserId === userId) return writerView(db, store, letter);
  const [delivery] = await db
    .select()
    .from(letterDeliveries)
    .where(
      and(eq(letterDeliveries.letterId, letterId), eq(letterDeliveries.recipientUserId, userId)),
    )
    .limit(1);
  if (delivery) return recipientView(db, clock, store, letter, delivery);
  const [admin] = await db
    .select({ userId: timeCapsuleLetterAdmins.userId })
    .from(timeCapsuleLetterAdmins)
    .where(
      and(
        eq(timeCapsuleLetterAdmins.letterId, letterId),
        eq(timeCapsuleLetterAdmins.userId, userId),
      ),
    );
  if (admin) return adminView(db, store, letter);
  throw notFound('letter');
}
