import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { preparedPerDatabase } from '../../db/prepared';
import { notifications } from '../../db/schema';
import { listablePageIds } from '../memorial/access';
import type { ServedOf } from '../../../contract/endpoint';
import type { NotificationKindValue } from '../../../contract/rules/social';
import type { SocialDeps } from './socialDeps';
import type { notificationItem } from '../../../contract/social';

/**
 * What each kind of notification carries: enough for the list to word it and link to the
 * thing it is about, without a join at read time. Other areas call `notify` with these.
 */
export interface NotificationPayloads {
  /** Someone asked to connect; the request can be answered from the connection screen. */
  connection_requested: { requestId: string; fromUserId: string; fromName: string };
  /** A request this member sent was accepted. */
  connection_accepted: { userId: string; name: string };
  /** This member was made an administrator of a memorial page. */
  admin_added: { memorialPageId: string; pageName: string; byUserId?: string };
  /** A condolence message was left on a page this member administers. */
  condolence_posted: { memorialPageId: string; pageName: string; condolenceId: string };
  /** A time-capsule letter reached this member. */
  letter_delivered: { letterId: string; senderName: string; title: string };
  /** An anniversary (e.g. 一周忌) of a page this member belongs to is coming. */
  anniversary_coming: {
    memorialPageId: string;
    pageName: string;
    anniversary: string;
    date: string;
  };
  /**
   * A member this member administers (or this member themself) may have died; `cancelledAt`
   * is added when that case is cancelled, so the notice no longer reads as an open alarm.
   */
  death_suspected: { userId: string; memorialPageId: string; name: string; cancelledAt?: string };
  /** A member this member administers cancelled the suspicion (they are alive). */
  death_cancelled: { userId: string; memorialPageId: string; name: string };
  /** A connection named this member one of their death administrators. */
  death_administrator_named: { userId: string; name: string };
  /** The death of a member this member administers was confirmed. */
  death_confirmed: { userId: string; memorialPageId: string; name: string };
  /** A member whose death was confirmed proved they are alive and restored their account. */
  death_restored: { userId: string; memorialPageId: string; name: string };
  /** This member asked for an archive of all their data. */
  data_export_requested: { exportId: string };
  /** The archive this member asked for can be downloaded. */
  data_export_ready: { exportId: string };
  /**
   * The release of a member this member administers carried out the member's choices: the
   * page (`mourning`, `unchanged`, `hidden`), the account (`memorial`, `delete` on `date`) and
   * who receives the archive (`you`, `other`, `none`).
   */
  death_choices_carried_out: {
    userId: string;
    memorialPageId: string;
    name: string;
    page: string;
    account: string;
    date: string;
    archive: string;
  };
  /** The archive of a released member this member receives can be downloaded. */
  death_archive_ready: { exportId: string; userId: string; name: string };
  /** The account of a released member was deleted as they chose; the page `kept` or `gone`. */
  death_account_deleted: { userId: string; memorialPageId: string; name: string; page: string };
}

/**
 * The kinds are listed once, in contract/rules/social.ts (the client words them too);
 * `NotificationPayloads[K]` below fails to compile for a listed kind without a payload.
 */
export type NotificationKind = NotificationKindValue;

export type NotificationItem = ServedOf<typeof notificationItem>;

/**
 * Records a notification for one member. `at` comes from the caller's clock (ctx.clock) so
 * that tests and jobs order notifications by the time they model. Pass a transaction as
 * `db` to notify atomically with the change that caused it (so it takes a `Db`, not the
 * area's deps).
 */
export async function notify<K extends NotificationKind>(
  db: Db,
  userId: string,
  kind: K,
  payload: NotificationPayloads[K],
  at: Date,
): Promise<string> {
  const [id] = await insertNotices(db, [{ userId, kind, payload }], at);
  return id!;
}

/** One notification to be recorded: for whom, of what kind, with that kind's payload. */
export type Notice = {
  [K in NotificationKind]: { userId: string; kind: K; payload: NotificationPayloads[K] };
}[NotificationKind];

/**
 * notify for many notifications at once, in one insert (a job's batch); answers their ids in
 * order. Takes a `Db`, like notify: it writes into the caller's transaction.
 */
export function notifyAll(db: Db, notices: Notice[], at: Date): Promise<string[]> {
  return insertNotices(db, notices, at);
}

/** The one place notifications are written. */
async function insertNotices(
  db: Db,
  notices: {
    userId: string;
    kind: NotificationKind;
    payload: NotificationPayloads[NotificationKind];
  }[],
  at: Date,
): Promise<string[]> {
  if (notices.length === 0) return [];
  const rows = await db
    .insert(notifications)
    .values(notices.map((notice) => ({ ...notice, createdAt: at })))
    .returning({ id: notifications.id });
  return rows.map((row) => row.id);
}

/** One page of a member's notifications, newest first; `hasMore` says a next page exists. */
export async function listNotifications(
  { db }: Pick<SocialDeps, 'db'>,
  userId: string,
  page: { page: number; perPage: number },
): Promise<{ items: NotificationItem[]; hasMore: boolean }> {
  const rows = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      payload: notifications.payload,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(page.perPage + 1)
    .offset((page.page - 1) * page.perPage);
  const items = rows.slice(0, page.perPage);
  return { items: await withListedPages(db, userId, items), hasMore: rows.length > page.perPage };
}

const pageIdOf = (payload: unknown): string | null => {
  const id = (payload as { memorialPageId?: unknown } | null)?.memorialPageId;
  return typeof id === 'string' ? id : null;
};

/**
 * A notification keeps the page it is about only while the member may list that page: a
 * page made `link` or admins-only, or a role lost, since it was written takes the id (and so
 * the link) out of the notification.
 */
async function withListedPages(
  db: Db,
  userId: string,
  items: NotificationItem[],
): Promise<NotificationItem[]> {
  const listable = await listablePageIds(
    db,
    userId,
    items.map((item) => pageIdOf(item.payload)),
  );
  return items.map((item) => {
    const pageId = pageIdOf(item.payload);
    if (pageId === null || listable.has(pageId)) return item;
    const { memorialPageId: _unlisted, ...payload } = item.payload as Record<string, unknown>;
    return { ...item, payload };
  });
}

const unreadCountQuery = preparedPerDatabase((db) =>
  db
    .select({ value: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, sql.placeholder('userId')), isNull(notifications.readAt)))
    .prepare('unread_notification_count'),
);

/** The badge number: a count over the partial index of unread rows, no join. */
export async function unreadCount({ db }: Pick<SocialDeps, 'db'>, userId: string): Promise<number> {
  const [row] = await unreadCountQuery(db).execute({ userId });
  return row?.value ?? 0;
}

/**
 * Marks one of the member's own notifications read (again is harmless). False when there is
 * no such notification of theirs, which the route answers with 404.
 */
export async function markRead(
  { db, clock }: Pick<SocialDeps, 'db' | 'clock'>,
  userId: string,
  notificationId: string,
): Promise<boolean> {
  const at = clock.now();
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

/** Marks every unread notification of the member read; answers how many changed. */
export async function markAllRead(
  { db, clock }: Pick<SocialDeps, 'db' | 'clock'>,
  userId: string,
): Promise<number> {
  const at = clock.now();
  const rows = await db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

/**
 * Marks read the member's unread notice of a delivered letter: reading the letter answers
 * it. The unread partial index narrows the update to the member's few unread rows. Takes a
 * `Db`: it writes into the transaction that opens the letter.
 */
export async function markLetterNotificationRead(
  db: Db,
  userId: string,
  letterId: string,
  at: Date,
): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: at })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        eq(notifications.kind, 'letter_delivered'),
        sql`${notifications.payload} ->> 'letterId' = ${letterId}`,
      ),
    );
}

/**
 * Withdraws the request notification of a request that was cancelled before it was seen.
 * Takes a `Db`: it writes into the cancelling transaction.
 */
export async function withdrawRequestNotification(
  db: Db,
  userId: string,
  requestId: string,
): Promise<void> {
  await db
    .delete(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.kind, 'connection_requested'),
        sql`${notifications.payload} ->> 'requestId' = ${requestId}`,
      ),
    );
}
