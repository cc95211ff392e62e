import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import {
  DATA_EXPORT_KEPT_DAYS,
  DATA_EXPORT_LINK_MINUTES,
  DATA_EXPORTS_PER_DAY,
} from '../../../contract/rules/dataExport';
import type { Db } from '../../db/database';
import { dataExports, users } from '../../db/schema';
import type { ObjectStore } from '../../storage/objectStore';
import { hashSecretToken, newSecretToken } from '../accounts/secretTokens';
import { isUniqueViolation } from '../accounts/registration';
import type { Clock } from '../../lib/clock';
import { DomainError, notFound } from '../errors';
import type { EndingNoteDeps } from '../endingnote/sections';
import { notify } from '../social/notifications';
import type { Translate } from '../../../contract/rules/endingnote';
import { AFTER_DEATH_ARCHIVE_KEPT_DAYS, archiveReady } from '../deathDetection/afterDeath';
import { buildArchive, KEEPSAKE_README, MEMBER_README } from './build';
import { collectKeepsake, collectMemberData } from './collect';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A build not renewed for this long is taken again (its process is presumed gone). */
export const STUCK_BUILD_MS = 10 * 60 * 1000;
/** How often a running build renews its claim, well within STUCK_BUILD_MS. */
const CLAIM_RENEWAL_MS = 60 * 1000;
/** Builds tried this many times without success are given up. */
export const MAX_BUILD_ATTEMPTS = 3;

const item = {
  id: dataExports.id,
  status: dataExports.status,
  createdAt: dataExports.createdAt,
  readyAt: dataExports.readyAt,
  expiresAt: dataExports.expiresAt,
  byteSize: dataExports.byteSize,
};

/**
 * The archives of one subject: the member's own data (no page, nobody else's), or one
 * memorial page.
 */
const subjectIs = (memorialPageId: string | null) =>
  memorialPageId === null
    ? and(isNull(dataExports.memorialPageId), isNull(dataExports.subjectUserId))
    : eq(dataExports.memorialPageId, memorialPageId);

const inProgress = () =>
  new DomainError(
    'conflict',
    'data_export_in_progress',
    'an archive is being prepared already; wait until it is ready',
  );

/**
 * POST /v1/data_exports, once the fresh proof is given: records the request (one unfinished
 * at a time, at most DATA_EXPORTS_PER_DAY in any 24 hours, both held by the database) and
 * tells the member in their notifications. The job builds the archive.
 */
export async function requestExport(
  db: Db,
  clock: Clock,
  userId: string,
  memorialPageId: string | null = null,
) {
  const now = clock.now();
  try {
    return await db.transaction(async (tx) => {
      // The member's row serialises their requests, so two at once count each other.
      await tx.execute(sql`select 1 from users where id = ${userId} for update`);
      const recent = await tx
        .select({ createdAt: dataExports.createdAt, status: dataExports.status })
        .from(dataExports)
        .where(
          and(
            eq(dataExports.userId, userId),
            subjectIs(memorialPageId),
            gt(dataExports.createdAt, new Date(now.getTime() - DAY_MS)),
          ),
        )
        .orderBy(asc(dataExports.createdAt));
      if (recent.some((row) => row.status === 'requested' || row.status === 'building')) {
        throw inProgress();
      }
      if (recent.length >= DATA_EXPORTS_PER_DAY) {
        const freeAt = recent[recent.length - DATA_EXPORTS_PER_DAY]!.createdAt.getTime() + DAY_MS;
        throw new DomainError(
          'too_many_attempts',
          'data_export_limit',
          `at most ${DATA_EXPORTS_PER_DAY} archives in 24 hours`,
          { retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) },
        );
      }
      const [created] = await tx
        .insert(dataExports)
        .values({ userId, memorialPageId, status: 'requested', createdAt: now, updatedAt: now })
        .returning(item);
      if (!memorialPageId) {
        await notify(tx, userId, 'data_export_requested', { exportId: created!.id }, now);
      }
      return created!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw inProgress();
    throw error;
  }
}

const listedSince = (clock: Clock) =>
  new Date(clock.now().getTime() - (DATA_EXPORT_KEPT_DAYS + 1) * DAY_MS);

/** GET /v1/data_exports: the member's requests of the last kept days, newest first. */
export async function listExports(db: Db, clock: Clock, userId: string) {
  return db
    .select(item)
    .from(dataExports)
    .where(
      and(
        eq(dataExports.userId, userId),
        subjectIs(null),
        gt(dataExports.createdAt, listedSince(clock)),
      ),
    )
    .orderBy(desc(dataExports.createdAt))
    .limit(20);
}

/**
 * GET /v1/memorial_page/:id/keepsakes: the page's keepsakes of the last kept days by any of
 * its admins, newest first, each naming who asked: the page's record of who took it away.
 */
export async function listKeepsakes(db: Db, clock: Clock, memorialPageId: string) {
  return db
    .select({
      ...item,
      requestedBy: { userId: users.id, lastName: users.lastName, firstName: users.firstName },
    })
    .from(dataExports)
    .innerJoin(users, eq(users.id, dataExports.userId))
    .where(and(subjectIs(memorialPageId), gt(dataExports.createdAt, listedSince(clock))))
    .orderBy(desc(dataExports.createdAt))
    .limit(20);
}

/**
 * GET /v1/data_exports/entrusted: the archives of released members the caller receives as
 * their chosen administrator (docs/after-death.md), newest first, each naming the member.
 */
export async function listEntrustedArchives(db: Db, clock: Clock, userId: string) {
  const since = new Date(clock.now().getTime() - (AFTER_DEATH_ARCHIVE_KEPT_DAYS + 1) * DAY_MS);
  return db
    .select({
      ...item,
      member: { userId: users.id, lastName: users.lastName, firstName: users.firstName },
    })
    .from(dataExports)
    .innerJoin(users, eq(users.id, dataExports.subjectUserId))
    .where(and(eq(dataExports.userId, userId), gt(dataExports.createdAt, since)))
    .orderBy(desc(dataExports.createdAt))
    .limit(20);
}

/**
 * POST /v1/data_exports/:id/download_link: a link that downloads the ready archive once
 * within DATA_EXPORT_LINK_MINUTES. A new link replaces the one before. Another member's
 * export is not found; one not (or no longer) ready is a conflict.
 */
export async function createDownloadLink(
  db: Db,
  clock: Clock,
  userId: string,
  exportId: string,
  publicUrl: string,
) {
  const now = clock.now();
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + DATA_EXPORT_LINK_MINUTES * 60 * 1000);
  const [linked] = await db
    .update(dataExports)
    .set({ linkHash: hashSecretToken(token), linkExpiresAt: expiresAt, linkUsedAt: null })
    .where(
      and(
        eq(dataExports.id, exportId),
        eq(dataExports.userId, userId),
        eq(dataExports.status, 'ready'),
        gt(dataExports.expiresAt, now),
      ),
    )
    .returning({ id: dataExports.id });
  if (!linked) {
    const [mine] = await db
      .select({ id: dataExports.id })
      .from(dataExports)
      .where(and(eq(dataExports.id, exportId), eq(dataExports.userId, userId)));
    if (!mine) throw notFound('data export');
    throw new DomainError('conflict', 'data_export_not_ready', 'the archive is not ready');
  }
  const query = new URLSearchParams({ token }).toString();
  return { url: `${publicUrl}/v1/data_exports/download?${query}`, expiresAt };
}

const invalidLink = () =>
  new DomainError(
    'link_invalid',
    'download_link_invalid',
    'このダウンロード用のリンクは使えません。リンクは一度だけ、15分のあいだ使えます。マイページからもう一度お試しください。',
  );

/** GET /v1/data_exports/download: spends the link and opens the archive it leads to. */
export async function takeDownload(db: Db, store: ObjectStore, clock: Clock, token: string) {
  const now = clock.now();
  const [taken] = await db
    .update(dataExports)
    .set({
      linkUsedAt: now,
      downloadedAt: sql`coalesce(${dataExports.downloadedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(
      and(
        eq(dataExports.linkHash, hashSecretToken(token)),
        isNull(dataExports.linkUsedAt),
        gt(dataExports.linkExpiresAt, now),
        eq(dataExports.status, 'ready'),
        gt(dataExports.expiresAt, now),
      ),
    )
    .returning({
      objectName: dataExports.objectName,
      createdAt: dataExports.createdAt,
      memorialPageId: dataExports.memorialPageId,
    });
  if (!taken?.objectName) throw invalidLink();
  const object = await store.getStream(taken.objectName);
  if (!object) throw invalidLink();
  return { ...object, createdAt: taken.createdAt, memorialPageId: taken.memorialPageId };
}

/**
 * A "this was not me" report of a request: every archive of the member not yet expired is
 * withdrawn (the job deletes its file) and no link of theirs works any more.
 */
export async function withdrawExports(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .update(dataExports)
    .set({ status: 'withdrawn', updatedAt: at, linkHash: null })
    .where(
      and(
        eq(dataExports.userId, userId),
        inArray(dataExports.status, ['requested', 'building', 'ready']),
      ),
    );
}

export interface DataExportJobDeps extends EndingNoteDeps {
  store: ObjectStore;
  clock: Clock;
  /** The Japanese texts of a keepsake's book and of the mail of an administrator's archive. */
  texts: () => Promise<Translate>;
  /** The links of the mails the job sends. */
  publicUrl: string;
}

/**
 * Takes the oldest waiting request, or a build stuck for STUCK_BUILD_MS, with FOR UPDATE SKIP
 * LOCKED so that each is built by one instance. A stuck build that used its last attempt is
 * failed instead.
 */
async function claimNext(db: Db, clock: Clock) {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({
        id: dataExports.id,
        userId: dataExports.userId,
        memorialPageId: dataExports.memorialPageId,
        subjectUserId: dataExports.subjectUserId,
        attempts: dataExports.attempts,
      })
      .from(dataExports)
      .where(
        or(
          eq(dataExports.status, 'requested'),
          and(
            eq(dataExports.status, 'building'),
            lte(dataExports.updatedAt, new Date(now.getTime() - STUCK_BUILD_MS)),
          ),
        ),
      )
      .orderBy(asc(dataExports.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return undefined;
    if (next.attempts >= MAX_BUILD_ATTEMPTS) {
      await tx
        .update(dataExports)
        .set({ status: 'failed', updatedAt: now })
        .where(eq(dataExports.id, next.id));
      return { failed: true as const };
    }
    const attempt = next.attempts + 1;
    await tx
      .update(dataExports)
      .set({ status: 'building', attempts: attempt, updatedAt: now })
      .where(eq(dataExports.id, next.id));
    return {
      failed: false as const,
      id: next.id,
      userId: next.userId,
      memorialPageId: next.memorialPageId,
      subjectUserId: next.subjectUserId,
      attempt,
    };
  });
}

/** Builds one claimed archive; answers whether it became ready. */
async function buildOne(
  deps: DataExportJobDeps,
  claim: {
    id: string;
    userId: string;
    memorialPageId: string | null;
    subjectUserId: string | null;
    attempt: number;
  },
): Promise<boolean> {
  const { db, clock } = deps;
  const objectName = `data-exports/${randomBytes(24).toString('base64url')}.zip`;
  const pageId = claim.memorialPageId;
  // Only the latest claim of a build may finish it: a retaken one may still be running.
  const stillMine = and(
    eq(dataExports.id, claim.id),
    eq(dataExports.status, 'building'),
    eq(dataExports.attempts, claim.attempt),
  );
  // A long archive keeps its claim, so that no other instance takes it as stuck.
  const renewal = setInterval(
    () =>
      void db
        .update(dataExports)
        .set({ updatedAt: clock.now() })
        .where(stillMine)
        .catch(() => undefined),
    CLAIM_RENEWAL_MS,
  );
  let byteSize: number;
  try {
    const at = clock.now();
    const entries = pageId
      ? collectKeepsake(db, await deps.texts(), pageId, at)
      : collectMemberData(deps, claim.subjectUserId ?? claim.userId);
    const readme = pageId ? KEEPSAKE_README : MEMBER_README;
    byteSize = await buildArchive(deps.store, objectName, entries, at, readme);
  } catch (error) {
    await db
      .update(dataExports)
      .set({
        status: claim.attempt >= MAX_BUILD_ATTEMPTS ? 'failed' : 'requested',
        updatedAt: clock.now(),
      })
      .where(stillMine);
    throw error;
  } finally {
    clearInterval(renewal);
  }
  const now = clock.now();
  const ready = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(dataExports)
      .set({
        status: 'ready',
        objectName,
        byteSize,
        updatedAt: now,
        readyAt: now,
        expiresAt: new Date(
          now.getTime() +
            (claim.subjectUserId ? AFTER_DEATH_ARCHIVE_KEPT_DAYS : DATA_EXPORT_KEPT_DAYS) * DAY_MS,
        ),
      })
      .where(stillMine)
      .returning({ id: dataExports.id });
    // A keepsake's admin watches it on the page; the member's archive comes with a notice, and
    // a released member's with a notice and a mail to the administrator who receives it.
    if (row && claim.subjectUserId) {
      await archiveReady(
        deps,
        tx,
        { exportId: claim.id, recipientId: claim.userId, subjectUserId: claim.subjectUserId },
        now,
      );
    } else if (row && !pageId) {
      await notify(tx, claim.userId, 'data_export_ready', { exportId: claim.id }, now);
    }
    return Boolean(row);
  });
  if (!ready) await deps.store.delete(objectName);
  return ready;
}

/**
 * Deletes the files of archives past their kept days and of withdrawn ones. The row stays,
 * so the member's list and the daily limit still count it.
 */
async function sweepArchives(deps: DataExportJobDeps): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .select({ id: dataExports.id, objectName: dataExports.objectName, status: dataExports.status })
    .from(dataExports)
    .where(
      and(
        isNotNull(dataExports.objectName),
        or(
          and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, now)),
          eq(dataExports.status, 'withdrawn'),
        ),
      ),
    )
    .limit(100);
  for (const row of due) {
    await deps.store.delete(row.objectName!);
    await deps.db
      .update(dataExports)
      .set({
        objectName: null,
        linkHash: null,
        updatedAt: now,
        ...(row.status === 'ready' ? { status: 'expired' as const } : {}),
      })
      .where(and(eq(dataExports.id, row.id), eq(dataExports.objectName, row.objectName!)));
  }
  return due.length;
}

/**
 * One pass of the job: the old files deleted, then every waiting archive built. A build that
 * throws ends the pass (the periodic runner logs it); its request waits for the next one.
 */
export async function runDataExports(
  deps: DataExportJobDeps,
  stopping?: AbortSignal,
): Promise<{ built: number; failed: number; deleted: number }> {
  const result = { built: 0, failed: 0, deleted: await sweepArchives(deps) };
  while (!stopping?.aborted) {
    const claim = await claimNext(deps.db, deps.clock);
    if (!claim) break;
    if (claim.failed) result.failed += 1;
    else if (await buildOne(deps, claim)) result.built += 1;
  }
  return result;
}
