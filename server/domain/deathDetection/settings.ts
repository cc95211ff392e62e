import type { deathSettings as settingsAnswer } from '../../../contract/deathDetection';
import type { ServedOf } from '../../../contract/endpoint';
import { and, asc, eq, inArray, ne, sql, type Placeholder } from 'drizzle-orm';
import {
  CHECK_IN_PERIOD_DAYS_MAX,
  CHECK_IN_PERIOD_DAYS_MIN,
  MAX_ADMINISTRATORS,
  type AfterDeathBody,
} from '../../../contract/rules/deathDetection';
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
import { invalid, notFound, type FieldError } from '../errors';
import { enqueueMail } from '../../mail/outbox';
import { areConnected } from '../connections';
import { notify } from '../social/notifications';
import {
  afterDeathErrors,
  afterDeathOf,
  choicesOfBody,
  sameChoices,
  type AfterDeathChoices,
} from './afterDeath';
import { recordAudit } from './audit';
import type { DeathDeps } from './deathDeps';
import { administratorNamedMail, fullName } from './mails';
import { ownMemorialPage } from '../ownPage';

export type DeathState = 'alive' | 'suspected' | 'grace' | 'released';

/** The member's death-detection settings as my page shows them (the contract's `deathSettings`). */
export type DeathSettingsView = ServedOf<typeof settingsAnswer>;

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
      relationship: connections.relationship,
      acceptedAt: deathAdministrators.acceptedAt,
    })
    .from(deathAdministrators)
    .innerJoin(users, eq(users.id, deathAdministrators.administratorUserId))
    .leftJoin(connections, administratorStillConnected)
    .where(eq(deathAdministrators.userId, userId))
    .orderBy(asc(users.nameReading), asc(users.id));
  return {
    rule: settings?.rule ?? 'any_one',
    administrators,
    checkInPeriodDays: settings?.checkInPeriodDays ?? null,
    gracePeriodDays: deps.settings.gracePeriodDays,
    afterDeath: await afterDeathOf(deps.db, userId),
  };
}

export interface DeathSettingsInput {
  rule: ConfirmationRule;
  administrator_user_ids: string[];
  check_in_period_days: number | null;
  /** Left out: the choices stay, but an archive recipient no longer named is dropped. */
  after_death?: AfterDeathBody;
}

/**
 * The choices a save leaves: those of the body, or the current ones without an archive
 * recipient who is no longer among the administrators named.
 */
export async function choicesAfterSave(
  db: Db,
  userId: string,
  input: DeathSettingsInput,
): Promise<AfterDeathChoices> {
  if (input.after_death) return choicesOfBody(input.after_death);
  const current = await afterDeathOf(db, userId);
  const recipient = current.archiveRecipientUserId;
  return recipient === null || input.administrator_user_ids.includes(recipient)
    ? current
    : { ...current, archiveRecipientUserId: null };
}

/**
 * Replaces the member's rule, administrators, check-in period and choices for after their
 * death (all or nothing).
 */
export async function putDeathSettings(
  deps: DeathDeps,
  userId: string,
  input: DeathSettingsInput,
): Promise<DeathSettingsView> {
  const ids = input.administrator_user_ids;
  const errors: FieldError[] = [];
  const choicesBefore = await afterDeathOf(deps.db, userId);
  const choices = await choicesAfterSave(deps.db, userId, input);
  errors.push(...afterDeathErrors(choices, ids));
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
    const columns = {
      rule: input.rule,
      checkInPeriodDays: period,
      aliveAt: now,
      updatedAt: now,
      pageAfterDeath: choices.page,
      accountAfterDeath: choices.account,
      deleteAfterDays: choices.deleteAfterDays,
      archiveRecipientUserId: choices.archiveRecipientUserId,
    };
    await tx
      .insert(deathSettings)
      .values({ userId, ...columns })
      .onConflictDoUpdate({ target: deathSettings.userId, set: columns });
    if (!sameChoices(choicesBefore, choices)) {
      await recordAudit(tx, {
        userId,
        action: 'after_death_changed',
        actorUserId: userId,
        detail: { ...choices },
        at: now,
      });
    }
    const before = await tx
      .select({
        id: deathAdministrators.administratorUserId,
        createdAt: deathAdministrators.createdAt,
        acceptedAt: deathAdministrators.acceptedAt,
      })
      .from(deathAdministrators)
      .where(eq(deathAdministrators.userId, userId));
    const kept = new Map(before.map((row) => [row.id, row]));
    await tx.delete(deathAdministrators).where(eq(deathAdministrators.userId, userId));
    if (ids.length > 0) {
      // Someone named again keeps when they were first named and whether they accepted.
      await tx.insert(deathAdministrators).values(
        ids.map((id) => ({
          userId,
          administratorUserId: id,
          createdAt: kept.get(id)?.createdAt ?? now,
          acceptedAt: kept.get(id)?.acceptedAt ?? null,
        })),
      );
    }
    const added = ids.filter((id) => !kept.has(id));
    const previous = before.map((row) => row.id).sort();
    if (previous.join() !== [...ids].sort().join()) {
      await recordAudit(tx, {
        userId,
        action: 'administrators_changed',
        actorUserId: userId,
        detail: { administratorUserIds: ids, rule: input.rule },
        at: now,
      });
    }
    if (added.length === 0) return;
    const [member] = await tx
      .select({ lastName: users.lastName, firstName: users.firstName })
      .from(users)
      .where(eq(users.id, userId));
    const name = member ? fullName(member) : '';
    for (const id of added) {
      await notify(tx, id, 'death_administrator_named', { userId, name }, now);
    }
    const recipients = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(inArray(users.id, added), eq(users.status, 'active')));
    // Mailed through the outbox with the change, as the in-app notification is written.
    for (const recipient of recipients) {
      await enqueueMail(
        tx,
        {
          kind: 'administrator_named',
          userId: recipient.id,
          ...administratorNamedMail(
            recipient.email,
            name,
            `${deps.publicUrl}/death-administration`,
          ),
        },
        deps.clock,
      );
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
      acceptedAt: deathAdministrators.acceptedAt,
    })
    .from(deathAdministrators)
    .innerJoin(connections, administratorStillConnected)
    .innerJoin(users, eq(users.id, deathAdministrators.userId))
    .leftJoin(memorialPages, ownMemorialPage())
    .where(
      and(
        eq(deathAdministrators.administratorUserId, administratorId),
        ne(users.status, 'deleted'),
      ),
    )
    .orderBy(asc(users.nameReading), asc(users.id));
}

/**
 * The administrator accepts being named by the member: 404 when the member did not name them
 * (or the connection ended). Accepting again keeps the first moment.
 */
export async function acceptAdministration(
  deps: DeathDeps,
  administratorId: string,
  userId: string,
): Promise<{ acceptedAt: Date }> {
  if (!(await isAdministratorOf(deps.db, administratorId, userId))) throw notFound('user');
  const now = deps.clock.now();
  const [row] = await deps.db
    .update(deathAdministrators)
    .set({
      acceptedAt: sql`coalesce(${deathAdministrators.acceptedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(
      and(
        eq(deathAdministrators.userId, userId),
        eq(deathAdministrators.administratorUserId, administratorId),
      ),
    )
    .returning({ acceptedAt: deathAdministrators.acceptedAt });
  return { acceptedAt: row!.acceptedAt! };
}

/** The open (suspected or grace) or released case of a member, if any. */
export async function currentCaseOf(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(deathCases)
    .where(and(eq(deathCases.userId, userId), ne(deathCases.state, 'cancelled')));
  return row;
}
