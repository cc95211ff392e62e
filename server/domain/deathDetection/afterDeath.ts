import { and, asc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import {
  DELETE_AFTER_DAYS_MAX,
  DELETE_AFTER_DAYS_MIN,
  type AccountAfterDeath,
  type AfterDeathBody,
  type PageAfterDeath,
} from '../../../contract/rules/deathDetection';
import type { Translate } from '../../../contract/rules/endingnote';
import type { Db } from '../../db/database';
import {
  dataExports,
  deathAuditLog,
  deathCases,
  deathSettings,
  memorialPageProfiles,
  memorialPages,
  PRIVACY_SETTINGS,
  users,
  type Privacy,
} from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { enqueueMails } from '../../mail/outbox';
import type { AccountDeps } from '../accounts/accountDeps';
import { deleteAccount } from '../accounts/deletion';
import type { FieldError } from '../errors';
import { ownMemorialPage } from '../ownPage';
import { notify, notifyAll, type Notice } from '../social/notifications';
import { recordAudit } from './audit';
import { fullName } from './mails';
import { mailOf, tokyoDate } from './restorationMails';
import { administratorsOf } from './settings';

/*
 * The member's choices for after their death (docs/after-death.md): what the release does with
 * their own memorial page, whether their account is deleted some days later, and which
 * administrator receives their archive. The defaults are what a release always did.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** The administrator's archive is kept a month: a family has much else to do in those weeks. */
export const AFTER_DEATH_ARCHIVE_KEPT_DAYS = 30;

export interface AfterDeathChoices {
  page: PageAfterDeath;
  account: AccountAfterDeath;
  deleteAfterDays: number | null;
  archiveRecipientUserId: string | null;
}

export const DEFAULT_AFTER_DEATH: AfterDeathChoices = {
  page: 'mourning',
  account: 'memorial',
  deleteAfterDays: null,
  archiveRecipientUserId: null,
};

export async function afterDeathOf(db: Db, userId: string): Promise<AfterDeathChoices> {
  const [row] = await db
    .select({
      page: deathSettings.pageAfterDeath,
      account: deathSettings.accountAfterDeath,
      deleteAfterDays: deathSettings.deleteAfterDays,
      archiveRecipientUserId: deathSettings.archiveRecipientUserId,
    })
    .from(deathSettings)
    .where(eq(deathSettings.userId, userId));
  return row ?? DEFAULT_AFTER_DEATH;
}

export const choicesOfBody = (body: AfterDeathBody): AfterDeathChoices => ({
  page: body.page,
  account: body.account,
  // Days mean nothing for an account kept as a memorial.
  deleteAfterDays: body.account === 'delete' ? body.delete_after_days : null,
  archiveRecipientUserId: body.archive_recipient_user_id,
});

export const sameChoices = (a: AfterDeathChoices, b: AfterDeathChoices) =>
  a.page === b.page &&
  a.account === b.account &&
  a.deleteAfterDays === b.deleteAfterDays &&
  a.archiveRecipientUserId === b.archiveRecipientUserId;

/** The choices' problems, given the administrators the same save names. */
export function afterDeathErrors(
  choices: AfterDeathChoices,
  administratorIds: string[],
): FieldError[] {
  const errors: FieldError[] = [];
  const days = choices.deleteAfterDays;
  if (
    choices.account === 'delete' &&
    (days === null || days < DELETE_AFTER_DAYS_MIN || days > DELETE_AFTER_DAYS_MAX)
  )
    errors.push({ field: 'after_death.delete_after_days', code: 'out_of_range' });
  const recipient = choices.archiveRecipientUserId;
  if (recipient !== null && !administratorIds.includes(recipient))
    errors.push({ field: 'after_death.archive_recipient_user_id', code: 'not_administrator' });
  return errors;
}

interface ReleasedMember {
  caseId: string;
  userId: string;
  name: string;
  dateOfDeath: string | null;
}

export interface PageOutcome {
  memorialPageId: string | null;
  deathDateFilled: boolean;
  /** What the case's log records of the step (none without a page). */
  logged: Record<string, unknown> | null;
}

/**
 * The release's step for the member's own page, as they chose: the mourning view (the date of
 * death fills an empty one unless it would precede the birth), left as it is, or hidden (only
 * the page's admins still see it; the privacy it had is kept in the log for a restoration).
 */
export async function carryOutPage(
  tx: Db,
  member: ReleasedMember,
  { page }: AfterDeathChoices,
  now: Date,
): Promise<PageOutcome> {
  const [row] = await tx
    .select({
      id: memorialPages.id,
      privacy: memorialPageProfiles.privacy,
      deathDateWasEmpty: sql<boolean>`death_date is null`,
    })
    // memorialPageProfiles is a second view of memorial_pages: its columns need no join.
    .from(memorialPages)
    .where(ownMemorialPage(member.userId));
  if (!row) return { memorialPageId: null, deathDateFilled: false, logged: null };
  let deathDateFilled = false;
  if (page === 'mourning') {
    await tx.execute(sql`
      update memorial_pages set mourning_since = ${now.toISOString()}::timestamptz,
        updated_at = ${now.toISOString()}::timestamptz,
        death_date = case when death_date is null and (birth_date is null or birth_date <= ${member.dateOfDeath}::date)
                          then ${member.dateOfDeath}::date else death_date end
      where id = ${row.id}`);
    const [after] = await tx
      .select({ deathDate: memorialPageProfiles.deathDate })
      .from(memorialPageProfiles)
      .where(eq(memorialPageProfiles.id, row.id));
    deathDateFilled = row.deathDateWasEmpty && after?.deathDate != null;
  } else if (page === 'hidden') {
    await tx
      .update(memorialPageProfiles)
      .set({ privacy: 'admins' })
      .where(eq(memorialPageProfiles.id, row.id));
  }
  const logged = {
    page,
    memorialPageId: row.id,
    ...(page === 'hidden' ? { privacyBefore: row.privacy } : {}),
    deathDateFilled,
  };
  return { memorialPageId: row.id, deathDateFilled, logged };
}

export interface ReleaseChoicesDeps {
  clock: Clock;
  publicUrl: string;
  texts: () => Promise<Translate>;
}

/**
 * Carries out the rest of the member's choices in the release's transaction (the page was
 * done by carryOutPage), each step in the case's log after the release's own: the page, the
 * day of the account's deletion, the archive asked of the data-export job for the chosen
 * administrator (still one of them), and the administrators told what was done.
 */
export async function carryOutChoices(
  deps: ReleaseChoicesDeps,
  tx: Db,
  member: ReleasedMember,
  choices: AfterDeathChoices,
  page: PageOutcome,
  now: Date,
): Promise<void> {
  if (page.logged) {
    await recordAudit(tx, {
      userId: member.userId,
      caseId: member.caseId,
      action: 'page_carried_out',
      detail: page.logged,
      at: now,
    });
  }
  const administrators = await administratorsOf(tx, member.userId);

  let deletionDueAt: Date | null = null;
  if (choices.account === 'delete' && choices.deleteAfterDays !== null) {
    deletionDueAt = new Date(now.getTime() + choices.deleteAfterDays * DAY_MS);
    await tx
      .update(deathCases)
      .set({ accountDeletionDueAt: deletionDueAt })
      .where(eq(deathCases.id, member.caseId));
    await recordAudit(tx, {
      userId: member.userId,
      caseId: member.caseId,
      action: 'account_deletion_scheduled',
      detail: { days: choices.deleteAfterDays, dueAt: deletionDueAt.toISOString() },
      at: now,
    });
  }

  const recipient = choices.archiveRecipientUserId;
  let archiveTo: string | null = null;
  if (recipient !== null) {
    if (administrators.includes(recipient)) {
      // The administrator is the archive's member (they download it); its subject is the one released.
      const [created] = await tx
        .insert(dataExports)
        .values({
          userId: recipient,
          subjectUserId: member.userId,
          status: 'requested',
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: dataExports.id });
      archiveTo = recipient;
      await recordAudit(tx, {
        userId: member.userId,
        caseId: member.caseId,
        action: 'archive_requested',
        detail: { recipientUserId: recipient, exportId: created?.id ?? null },
        at: now,
      });
    } else {
      // Named once, but no longer an administrator (or no longer connected): nobody receives it.
      await recordAudit(tx, {
        userId: member.userId,
        caseId: member.caseId,
        action: 'archive_skipped',
        detail: { recipientUserId: recipient, reason: 'not_administrator' },
        at: now,
      });
    }
  }

  const told = await tellAdministrators(deps, tx, member, administrators, {
    mail: [
      'mail-after-death-done',
      ['body', 'page', 'account', 'archive', 'more'].map((part) => `mail-after-death-done-${part}`),
    ],
    notification: 'death_choices_carried_out',
    args: (recipientId) => ({
      page: choices.page,
      account: choices.account,
      date: deletionDueAt ? tokyoDate(deletionDueAt) : '',
      archive: archiveTo === null ? 'none' : archiveTo === recipientId ? 'you' : 'other',
    }),
    memorialPageId: page.memorialPageId,
    now,
  });
  await recordAudit(tx, {
    userId: member.userId,
    caseId: member.caseId,
    action: 'administrators_told',
    detail: { told, page: choices.page, account: choices.account, archive: archiveTo !== null },
    at: now,
  });
}

/**
 * Notifies each administrator (in `tx`) and mails them. The mail is about the member's death:
 * withdrawn unsent if the account is restored first. Answers how many were told.
 */
async function tellAdministrators(
  deps: ReleaseChoicesDeps,
  tx: Db,
  member: ReleasedMember,
  administratorIds: string[],
  what: {
    /** The mail's Fluent ids: the prefix of its subject, its paragraphs. */
    mail: [string, string[]];
    notification: 'death_choices_carried_out' | 'death_account_deleted';
    args: (recipientId: string) => Record<string, string>;
    memorialPageId: string | null;
    now: Date;
  },
): Promise<number> {
  if (administratorIds.length === 0) return 0;
  const recipients = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.id, administratorIds), eq(users.status, 'active')))
    .orderBy(asc(users.id));
  const t = await deps.texts();
  const link = `${deps.publicUrl}/death-administration`;
  // Each kind's own fields come from `args`; the payload types name them.
  await notifyAll(
    tx,
    recipients.map((recipient) => ({
      userId: recipient.id,
      kind: what.notification,
      payload: {
        userId: member.userId,
        memorialPageId: what.memorialPageId ?? '',
        name: member.name,
        ...what.args(recipient.id),
      },
    })) as Notice[],
    what.now,
  );
  await enqueueMails(
    tx,
    recipients.map((recipient) => ({
      kind: what.notification,
      userId: recipient.id,
      aboutUserId: member.userId,
      ...mailOf(
        t,
        recipient.email,
        { subject: `${what.mail[0]}-subject`, paragraphs: what.mail[1] },
        { name: member.name, ...what.args(recipient.id) },
        link,
      ),
    })),
    deps.clock,
  );
  return recipients.length;
}

/**
 * The data-export job finished a released member's archive for `recipientId`: the
 * administrator is told (notification and mail) and the case's log records it.
 */
export async function archiveReady(
  deps: ReleaseChoicesDeps,
  tx: Db,
  archive: { exportId: string; recipientId: string; subjectUserId: string },
  now: Date,
): Promise<void> {
  const [member] = await tx
    .select({ lastName: users.lastName, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, archive.subjectUserId));
  const [theCase] = await tx
    .select({ id: deathCases.id })
    .from(deathCases)
    .where(and(eq(deathCases.userId, archive.subjectUserId), eq(deathCases.state, 'released')));
  const name = member ? fullName(member) : '';
  await notify(
    tx,
    archive.recipientId,
    'death_archive_ready',
    { exportId: archive.exportId, userId: archive.subjectUserId, name },
    now,
  );
  const [recipient] = await tx
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, archive.recipientId), eq(users.status, 'active')));
  if (recipient) {
    const t = await deps.texts();
    await enqueueMails(
      tx,
      [
        {
          kind: 'death_archive_ready',
          userId: archive.recipientId,
          aboutUserId: archive.subjectUserId,
          ...mailOf(
            t,
            recipient.email,
            {
              subject: 'mail-after-death-archive-subject',
              paragraphs: ['mail-after-death-archive-body'],
            },
            { name, days: String(AFTER_DEATH_ARCHIVE_KEPT_DAYS) },
            `${deps.publicUrl}/death-administration`,
          ),
        },
      ],
      deps.clock,
    );
  }
  await recordAudit(tx, {
    userId: archive.subjectUserId,
    caseId: theCase?.id ?? null,
    action: 'archive_ready',
    detail: { recipientUserId: archive.recipientId, exportId: archive.exportId },
    at: now,
  });
}

/** What deleting an account needs besides the death rules' own. */
export type DeletionDeps = Pick<AccountDeps, 'db' | 'clock' | 'store'>;

/** Deletions done per pass; a pass takes batches until none is due. */
const DELETION_BATCH = 10;

/**
 * Deletes the accounts whose chosen day has come, each once (FOR UPDATE SKIP LOCKED): the
 * account goes as a member's own deletion takes it, except the own memorial page when the
 * member chose to leave it (mourning or unchanged), which stays with its audience. The
 * administrators are told; the log records it. Answers how many.
 */
export async function deleteDueAccounts(
  deps: ReleaseChoicesDeps,
  accountDeps: DeletionDeps,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await accountDeps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const due = await tx
        .select({
          caseId: deathCases.id,
          userId: deathCases.userId,
          dateOfDeath: deathCases.dateOfDeath,
        })
        .from(deathCases)
        .where(
          and(
            eq(deathCases.state, 'released'),
            isNotNull(deathCases.accountDeletionDueAt),
            isNull(deathCases.accountDeletedAt),
            lte(deathCases.accountDeletionDueAt, now),
          ),
        )
        .orderBy(asc(deathCases.accountDeletionDueAt))
        .limit(DELETION_BATCH)
        .for('update', { skipLocked: true });
      for (const dueCase of due) await deleteOne(deps, accountDeps, tx, dueCase, now);
      return due.length;
    });
    deleted += batch;
    if (batch < DELETION_BATCH) return deleted;
  }
}

async function deleteOne(
  deps: ReleaseChoicesDeps,
  accountDeps: DeletionDeps,
  tx: Db,
  dueCase: { caseId: string; userId: string; dateOfDeath: string | null },
  now: Date,
): Promise<void> {
  const { caseId, userId } = dueCase;
  const choices = await afterDeathOf(tx, userId);
  const [member] = await tx
    .select({ lastName: users.lastName, firstName: users.firstName, pageId: memorialPages.id })
    .from(users)
    .leftJoin(memorialPages, ownMemorialPage())
    .where(eq(users.id, userId));
  const keptPageId = choices.page === 'hidden' ? undefined : (member?.pageId ?? undefined);
  // Told before the deletion ends the connections that make them administrators.
  const administrators = await administratorsOf(tx, userId);
  await deleteAccount({ ...accountDeps, db: tx }, userId, { keepPageId: keptPageId });
  await tx.update(deathCases).set({ accountDeletedAt: now }).where(eq(deathCases.id, caseId));
  const released = {
    caseId,
    userId,
    name: member ? fullName(member) : '',
    dateOfDeath: dueCase.dateOfDeath,
  };
  const told = await tellAdministrators(deps, tx, released, administrators, {
    mail: ['mail-after-death-deleted', ['mail-after-death-deleted-body']],
    notification: 'death_account_deleted',
    args: () => ({ page: keptPageId ? 'kept' : 'gone' }),
    memorialPageId: keptPageId ?? null,
    now,
  });
  await recordAudit(tx, {
    userId,
    caseId,
    action: 'account_deleted',
    detail: { memorialPageKept: keptPageId !== undefined, told },
    at: now,
  });
}

export interface ChoicesUndone {
  page: boolean;
  accountDeletionCancelled: boolean;
  archiveWithdrawn: boolean;
  archive: { recipient: string; downloadedAt: string } | null;
}

/**
 * A restoration's part: the page as it was (mourning ended by the caller; a hidden page shows
 * with its former privacy), the waiting deletion cancelled, and the archive withdrawn (its file
 * deleted by the job). An archive already downloaded stays with its administrator: answered.
 */
export async function undoChoices(
  tx: Db,
  theCase: { caseId: string; userId: string; mourningEnded: boolean },
  now: Date,
): Promise<ChoicesUndone> {
  const { caseId, userId } = theCase;
  const [pageStep] = await tx
    .select({ detail: deathAuditLog.detail })
    .from(deathAuditLog)
    .where(and(eq(deathAuditLog.caseId, caseId), eq(deathAuditLog.action, 'page_carried_out')));
  let page = theCase.mourningEnded;
  const detail = pageStep?.detail;
  if (detail?.page === 'hidden' && typeof detail.memorialPageId === 'string') {
    const privacyBefore = detail.privacyBefore;
    if (PRIVACY_SETTINGS.some((privacy) => privacy === privacyBefore)) {
      await tx
        .update(memorialPageProfiles)
        .set({ privacy: privacyBefore as Privacy })
        .where(eq(memorialPageProfiles.id, detail.memorialPageId));
      page = true;
    }
  }
  const cancelled = await tx
    .update(deathCases)
    .set({ accountDeletionDueAt: null })
    .where(
      and(
        eq(deathCases.id, caseId),
        isNotNull(deathCases.accountDeletionDueAt),
        isNull(deathCases.accountDeletedAt),
      ),
    )
    .returning({ id: deathCases.id });
  const [downloaded] = await tx
    .select({
      downloadedAt: dataExports.downloadedAt,
      lastName: users.lastName,
      firstName: users.firstName,
    })
    .from(dataExports)
    .innerJoin(users, eq(users.id, dataExports.userId))
    .where(and(eq(dataExports.subjectUserId, userId), isNotNull(dataExports.downloadedAt)))
    .orderBy(asc(dataExports.downloadedAt))
    .limit(1);
  const withdrawn = await tx
    .update(dataExports)
    .set({ status: 'withdrawn', updatedAt: now, linkHash: null })
    .where(
      and(
        eq(dataExports.subjectUserId, userId),
        isNull(dataExports.downloadedAt),
        inArray(dataExports.status, ['requested', 'building', 'ready']),
      ),
    )
    .returning({ id: dataExports.id });
  // A downloaded archive's file goes too: no second copy is handed out once they are alive.
  await tx
    .update(dataExports)
    .set({ status: 'withdrawn', updatedAt: now, linkHash: null })
    .where(
      and(
        eq(dataExports.subjectUserId, userId),
        inArray(dataExports.status, ['requested', 'building', 'ready']),
      ),
    );
  return {
    page,
    accountDeletionCancelled: cancelled.length > 0,
    archiveWithdrawn: withdrawn.length > 0,
    archive: downloaded?.downloadedAt
      ? { recipient: fullName(downloaded), downloadedAt: downloaded.downloadedAt.toISOString() }
      : null,
  };
}
