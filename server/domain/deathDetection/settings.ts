import { and, asc, eq, inArray, ne, sql, type Placeholder } from 'drizzle-orm';
import {
  CHECK_IN_PERIOD_DAYS_MAX,
  CHECK_IN_PERIOD_DAYS_MIN,
  MAX_ADMINISTRATORS,
} from '../../../src/validation/deathDetection';
import type { Db } from '../../db/database';
import {
  connections,
  deathAdministrators,
  deathCases,
  deathSettings,
  memorialPages,
  users,
  type ConfirmationRule,
} from '../../db/schema';
import { invalid, type FieldError } from '../../http/errors';
import { areConnected } from '../connections';
import { recordAudit } from './audit';
import type { DeathDeps } from './deps';

export type DeathState = 'alive' | 'suspected' | 'grace' | 'released';

export interface DeathSettingsView {
  rule: ConfirmationRule;
  administrators: { userId: string; lastName: string; firstName: string; certificated: boolean }[];
  checkInPeriodDays: number | null;
}

/** SQL: true when the member's identity certificate is ACTIVE and not expired at `now`. */
export function certificatedSql(userIdColumn: unknown, now: Date | Placeholder) {
  // A prepared statement passes the moment as a placeholder, filled in on each execution.
  const at = now instanceof Date ? now.toISOString() : now;
  return sql<boolean>`exists (select 1 from identity_verifications iv
    where iv.user_id = ${userIdColumn} and iv.status = 'ACTIVE'
      and iv.not_after > ${at}::timestamptz)`;
}

/**
 * The avatar badge of each listed member (search results, connections): true when their
 * identity certificate is ACTIVE at `now`, in one query for the whole list.
 */
export async function certificatedOf(
  db: Db,
  userIds: string[],
  now: Date,
): Promise<Map<string, boolean>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: users.id, certificated: certificatedSql(users.id, now) })
    .from(users)
    .where(inArray(users.id, userIds));
  return new Map(rows.map((row) => [row.userId, row.certificated]));
}

/** How many confirmations a rule needs. */
export function confirmationsNeeded(rule: ConfirmationRule): number {
  return rule === 'two' ? 2 : 1;
}

export async function ruleOf(db: Db, userId: string): Promise<ConfirmationRule> {
  const [row] = await db
    .select({ rule: deathSettings.rule })
    .from(deathSettings)
    .where(eq(deathSettings.userId, userId));
  return row?.rule ?? 'any_one';
}

export async function getDeathSettings(
  deps: DeathDeps,
  userId: string,
): Promise<DeathSettingsView> {
  const [settings] = await deps.db
    .select({ rule: deathSettings.rule, checkInPeriodDays: deathSettings.checkInPeriodDays })
    .from(deathSettings)
    .where(eq(deathSettings.userId, userId));
  const administrators = await deps.db
    .select({
      userId: users.id,
      lastName: users.lastName,
      firstName: users.firstName,
      certificated: certificatedSql(users.id, deps.clock.now()),
    })
    .from(deathAdministrators)
    .innerJoin(users, eq(users.id, deathAdministrators.administratorUserId))
    .where(eq(deathAdministrators.userId, userId))
    .orderBy(asc(users.nameReading), asc(users.id));
  return {
    rule: settings?.rule ?? 'any_one',
    administrators,
    checkInPeriodDays: settings?.checkInPeriodDays ?? null,
  };
}

export interface DeathSettingsInput {
  rule: ConfirmationRule;
  administrator_user_ids: string[];
  check_in_period_days: number | null;
}

/** Replaces the member's rule, administrators and check-in period (all or nothing). */
export async function putDeathSettings(
  deps: DeathDeps,
  userId: string,
  input: DeathSettingsInput,
): Promise<DeathSettingsView> {
  const ids = input.administrator_user_ids;
  const errors: FieldError[] = [];
  if (new Set(ids).size !== ids.length)
    errors.push({ field: 'administrator_user_ids', code: 'duplicate' });
  else if (ids.length > MAX_ADMINISTRATORS)
    errors.push({ field: 'administrator_user_ids', code: 'too_many' });
  else {
    for (const id of ids) {
      if (!(await areConnected(deps.db, userId, id))) {
        errors.push({ field: 'administrator_user_ids', code: 'not_connected' });
        break;
      }
    }
  }
  if (input.rule === 'two' && ids.length < 2)
    errors.push({ field: 'rule', code: 'needs_two_administrators' });
  const period = input.check_in_period_days;
  if (
    period !== null &&
    (!Number.isInteger(period) ||
      period < CHECK_IN_PERIOD_DAYS_MIN ||
      period > CHECK_IN_PERIOD_DAYS_MAX)
  )
    errors.push({ field: 'check_in_period_days', code: 'out_of_range' });
  if (errors.length > 0) throw invalid(errors);

  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(deathSettings)
      .values({ userId, rule: input.rule, checkInPeriodDays: period, aliveAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: deathSettings.userId,
        set: { rule: input.rule, checkInPeriodDays: period, aliveAt: now, updatedAt: now },
      });
    const before = await tx
      .select({ id: deathAdministrators.administratorUserId })
      .from(deathAdministrators)
      .where(eq(deathAdministrators.userId, userId));
    const previous = before.map((row) => row.id).sort();
    // Administrators who stay keep the moment they were named (the 7-day wait counts from it).
    const removed = previous.filter((id) => !ids.includes(id));
    const added = ids.filter((id) => !previous.includes(id));
    if (removed.length > 0) {
      await tx
        .delete(deathAdministrators)
        .where(
          and(
            eq(deathAdministrators.userId, userId),
            inArray(deathAdministrators.administratorUserId, removed),
          ),
        );
    }
    if (added.length > 0) {
      await tx
        .insert(deathAdministrators)
        .values(added.map((id) => ({ userId, administratorUserId: id, createdAt: now })));
    }
    if (previous.join() !== [...ids].sort().join()) {
      await recordAudit(tx, {
        userId,
        action: 'administrators_changed',
        actorUserId: userId,
        detail: { administratorUserIds: ids, rule: input.rule },
        at: now,
      });
    }
  });
  return getDeathSettings(deps, userId);
}

const administratorStillConnected = and(
  eq(connections.userId, deathAdministrators.userId),
  eq(connections.otherUserId, deathAdministrators.administratorUserId),
);

/**
 * Administrators who may act now: named by the member and still one of their connections
 * (a connection ended later ends the right too).
 */
export async function administratorsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: deathAdministrators.administratorUserId })
    .from(deathAdministrators)
    .innerJoin(connections, administratorStillConnected)
    .where(eq(deathAdministrators.userId, userId));
  return rows.map((row) => row.id);
}

export async function isAdministratorOf(
  db: Db,
  administratorId: string,
  userId: string,
): Promise<boolean> {
  return (await administratorsOf(db, userId)).includes(administratorId);
}

/** The member's current case state ('alive' when no case is open or released). */
export function stateSql(userIdColumn: unknown) {
  return sql<DeathState>`coalesce((select dc.state from death_cases dc
    where dc.user_id = ${userIdColumn} and dc.state <> 'cancelled'), 'alive')`;
}

/** The members who named the caller (and are still connected), with the state of each. */
export async function administeredUsers(deps: DeathDeps, administratorId: string) {
  return deps.db
    .select({
      userId: users.id,
      lastName: users.lastName,
      firstName: users.firstName,
      memorialPageId: memorialPages.id,
      state: stateSql(users.id),
    })
    .from(deathAdministrators)
    .innerJoin(connections, administratorStillConnected)
    .innerJoin(users, eq(users.id, deathAdministrators.userId))
    .leftJoin(
      memorialPages,
      and(eq(memorialPages.ownerUserId, users.id), eq(memorialPages.type, 'self')),
    )
    .where(
      and(
        eq(deathAdministrators.administratorUserId, administratorId),
        ne(users.status, 'deleted'),
      ),
    )
    .orderBy(asc(users.nameReading), asc(users.id));
}

/** The open (suspected or grace) or released case of a member, if any. */
export async function currentCaseOf(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(deathCases)
    .where(and(eq(deathCases.userId, userId), ne(deathCases.state, 'cancelled')));
  return row;
}
