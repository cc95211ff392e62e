import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { deathAuditLog, users, type SignalSource } from '../../db/schema';

export const AUDIT_ACTIONS = [
  'suspicion_raised',
  'suspicion_cancelled',
  'confirmation_recorded',
  'grace_started',
  'released',
  'check_in_sent',
  'check_in_answered',
  'administrators_changed',
  'restored',
  // The member's choices for after their death (docs/after-death.md).
  'after_death_changed',
  'page_carried_out',
  'account_deletion_scheduled',
  'archive_requested',
  'archive_skipped',
  'archive_ready',
  'administrators_told',
  'account_deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntryInput {
  userId: string;
  caseId?: string | null;
  action: AuditAction;
  actorUserId?: string | null;
  source?: SignalSource | null;
  detail?: Record<string, unknown>;
  at: Date;
}

/** Records steps, in order; pass the transaction of the change they record. */
export async function recordAudits(db: Db, entries: AuditEntryInput[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(deathAuditLog).values(
    entries.map((entry) => ({
      userId: entry.userId,
      caseId: entry.caseId ?? null,
      action: entry.action,
      actorUserId: entry.actorUserId ?? null,
      source: entry.source ?? null,
      detail: entry.detail ?? {},
      createdAt: entry.at,
    })),
  );
}

/** Records one step; pass the transaction of the change it records. */
export const recordAudit = (db: Db, entry: AuditEntryInput) => recordAudits(db, [entry]);

/** The member's whole log, oldest first (readers are checked by the caller). */
export async function auditLogOf(db: Db, userId: string) {
  return db
    .select({
      id: deathAuditLog.id,
      action: deathAuditLog.action,
      createdAt: deathAuditLog.createdAt,
      actorUserId: deathAuditLog.actorUserId,
      actorLastName: users.lastName,
      actorFirstName: users.firstName,
      source: deathAuditLog.source,
      detail: deathAuditLog.detail,
    })
    .from(deathAuditLog)
    .leftJoin(users, eq(users.id, deathAuditLog.actorUserId))
    .where(eq(deathAuditLog.userId, userId))
    .orderBy(asc(deathAuditLog.seq));
}
