import { and, asc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  connections,
  deathAdministrators,
  deathCases,
  deathCheckIns,
  deathConfirmations,
  deathSettings,
  deathSignals,
  memorialPages,
  notifications,
  users,
  type SignalSource,
} from '../../db/schema';
import { enqueueMails, withdrawMailsAbout } from '../../mail/outbox';
import type { Clock } from '../../lib/clock';
import { notify } from '../social/notifications';
import { recordAudit } from './audit';
import type { DeathDeps } from './deathDeps';
import {
  cancelledMailToAdministrator,
  fullName,
  suspicionMailToAdministrator,
  suspicionMailToMember,
} from './mails';
import { pushToMember } from './push';
import { AccountMemorialized } from './restoration';
import { administratorsOf } from './settings';
import type { SuspectedUser } from '../../../contract/deathDetection';
import { ownMemorialPage } from '../ownPage';

export interface Signal {
  source: SignalSource;
  reporterUserId?: string | null;
  clientId?: string | null;
  detail?: Record<string, unknown>;
}

export type RaiseOutcome = 'opened' | 'added' | 'released';

interface Person {
  id: string;
  email: string;
  lastName: string;
  firstName: string;
  memorialPageId: string | null;
}

async function peopleByIds(db: Db, ids: string[]): Promise<Person[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: users.id,
      email: users.email,
      lastName: users.lastName,
      firstName: users.firstName,
      memorialPageId: memorialPages.id,
    })
    .from(users)
    .leftJoin(memorialPages, ownMemorialPage())
    .where(and(inArray(users.id, ids), eq(users.status, 'active')));
}

/**
 * Records a signal of suspicion with its source. The first signal opens the member's case
 * (state `suspected`) and notifies the member and their administrators (in-app, mail, push);
 * later signals join the open case. A released case takes no more signals.
 */
export async function raiseSuspicion(
  deps: DeathDeps,
  userId: string,
  signal: Signal,
): Promise<RaiseOutcome> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(deathCases)
      .values({ userId, state: 'suspected', openedAt: now })
      .onConflictDoNothing()
      .returning({ id: deathCases.id });
    const opened = inserted.length > 0;
    const [current] = await tx
      .select({ id: deathCases.id, state: deathCases.state })
      .from(deathCases)
      .where(and(eq(deathCases.userId, userId), sql`${deathCases.state} <> 'cancelled'`))
      .for('update');
    if (!current) throw new Error(`raiseSuspicion: no case for ${userId}`);
    if (current.state === 'released') return 'released' as const;
    await tx.insert(deathSignals).values({
      caseId: current.id,
      source: signal.source,
      reporterUserId: signal.reporterUserId ?? null,
      clientId: signal.clientId ?? null,
      detail: signal.detail ?? {},
      createdAt: now,
    });
    await recordAudit(tx, {
      userId,
      caseId: current.id,
      action: 'suspicion_raised',
      actorUserId: signal.reporterUserId ?? null,
      source: signal.source,
      detail: {
        ...(signal.detail ?? {}),
        ...(signal.clientId ? { clientId: signal.clientId } : {}),
        opened,
      },
      at: now,
    });
    if (opened) await notifyAbout(tx, deps, userId, 'death_suspected', now, { member: true });
    return opened ? ('opened' as const) : ('added' as const);
  });
  if (outcome === 'opened') await pushSuspicion(deps, userId);
  return outcome;
}

/**
 * In-app notifications and mails about the member to their administrators (and to the member
 * when `member` is set), inside the transaction that opened or cancelled the case.
 */
async function notifyAbout(
  tx: Db,
  deps: Pick<DeathDeps, 'clock' | 'publicUrl'>,
  userId: string,
  kind: 'death_suspected' | 'death_cancelled',
  now: Date,
  also: { member: boolean },
) {
  const [member] = await peopleByIds(tx, [userId]);
  if (!member) return;
  const name = fullName(member);
  const payload = { userId, memorialPageId: member.memorialPageId ?? '', name };
  const administratorIds = await administratorsOf(tx, userId);
  for (const recipient of also.member ? [userId, ...administratorIds] : administratorIds) {
    await notify(tx, recipient, kind, payload, now);
  }
  const administrators = await peopleByIds(tx, administratorIds);
  const mails = [
    ...(also.member && kind === 'death_suspected'
      ? [{ userId, ...suspicionMailToMember(member.email, `${deps.publicUrl}/login`) }]
      : []),
    ...administrators.map((administrator) => ({
      userId: administrator.id,
      ...(kind === 'death_suspected'
        ? suspicionMailToAdministrator(administrator.email, name, `${deps.publicUrl}/dashboard`)
        : cancelledMailToAdministrator(administrator.email, name)),
    })),
  ];
  // A suspicion's mails are withdrawn if the case is cancelled before they go.
  const about = kind === 'death_suspected' ? { aboutUserId: userId } : {};
  await enqueueMails(
    tx,
    mails.map((mail) => ({ kind, ...about, ...mail })),
    deps.clock,
  );
}

/** Push after the commit; a failure is logged (the in-app notice and the mails stand). */
async function pushSuspicion(deps: DeathDeps, userId: string) {
  try {
    await pushToMember(deps, userId, {
      kind: 'death_suspected',
      title: 'Shinobu',
      body: 'death_suspected_self',
      data: { userId },
    });
    for (const administratorId of await administratorsOf(deps.db, userId)) {
      await pushToMember(deps, administratorId, {
        kind: 'death_suspected',
        title: 'Shinobu',
        body: 'death_suspected_administered',
        data: { userId },
      });
    }
  } catch (error) {
    deps.log.error({ err: error, userId }, 'suspicion push failed');
  }
}

/**
 * The notices of a cancelled case follow it: every `death_suspected` notification about the
 * member (theirs and their administrators') says it was cancelled and stops counting as unread.
 */
export async function markSuspicionNoticesCancelled(
  tx: Db,
  userId: string,
  now: Date,
  kinds: ('death_suspected' | 'death_confirmed')[] = ['death_suspected'],
) {
  await tx
    .update(notifications)
    .set({
      payload: sql`${notifications.payload} || jsonb_build_object('cancelledAt', ${now.toISOString()}::text)`,
      readAt: sql`coalesce(${notifications.readAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(
      and(
        inArray(notifications.kind, kinds),
        sql`${notifications.payload} ->> 'userId' = ${userId}`,
        sql`not (${notifications.payload} ? 'cancelledAt')`,
      ),
    );
}

export interface CancelDeps {
  db: Db;
  clock: Clock;
  publicUrl: string;
  log: { error(details: object, message: string): void };
}

/**
 * The member is alive: an open case (suspected or in its grace period) is cancelled, its
 * confirmations void, open check-ins answered, the mails about the death not sent yet
 * withdrawn (answered: how many). Undefined when nothing was open.
 */
export async function cancelSuspicion(
  deps: CancelDeps,
  userId: string,
  by: 'sign_in' | 'cancel',
): Promise<{ mailsWithdrawn: number } | undefined> {
  const now = deps.clock.now();
  const cancelled = await deps.db.transaction(async (tx) => {
    const [closed] = await tx
      .update(deathCases)
      .set({ state: 'cancelled', closedAt: now, closedBy: by })
      .where(and(eq(deathCases.userId, userId), inArray(deathCases.state, ['suspected', 'grace'])))
      .returning({ id: deathCases.id });
    await tx.update(deathSettings).set({ aliveAt: now }).where(eq(deathSettings.userId, userId));
    await tx
      .update(deathCheckIns)
      .set({ answeredAt: now })
      .where(
        and(
          eq(deathCheckIns.userId, userId),
          sql`${deathCheckIns.answeredAt} IS NULL AND ${deathCheckIns.escalatedAt} IS NULL`,
        ),
      );
    if (!closed) return undefined;
    const mailsWithdrawn = await withdrawMailsAbout(tx, userId, now);
    await recordAudit(tx, {
      userId,
      caseId: closed.id,
      action: 'suspicion_cancelled',
      actorUserId: userId,
      detail: { by, mailsWithdrawn },
      at: now,
    });
    await markSuspicionNoticesCancelled(tx, userId, now);
    await notifyAbout(tx, deps, userId, 'death_cancelled', now, { member: false });
    return { mailsWithdrawn };
  });
  return cancelled;
}

/**
 * The accounts domain calls this on every sign-in (password, activation, social login): a
 * released member's account is read-only memorial content and cannot be signed into; any
 * other member's open case is cancelled by their own sign-in.
 */
export async function onMemberSignIn(deps: CancelDeps, userId: string): Promise<void> {
  const [released] = await deps.db
    .select({ id: deathCases.id, releasedAt: deathCases.releasedAt })
    .from(deathCases)
    .where(and(eq(deathCases.userId, userId), eq(deathCases.state, 'released')));
  if (released) throw new AccountMemorialized(released.id, released.releasedAt!);
  await cancelSuspicion(deps, userId, 'sign_in');
}

const suspectedColumns = {
  userId: users.id,
  memorialPageId: memorialPages.id,
  lastName: users.lastName,
  firstName: users.firstName,
  state: sql<'suspected' | 'grace'>`${deathCases.state}`,
};

/**
 * Members with an open `suspected` case who named the caller, and whose case the caller has
 * not confirmed yet; oldest case first.
 */
async function administeredSuspected(db: Db, administratorId: string): Promise<SuspectedUser[]> {
  return db
    .select(suspectedColumns)
    .from(deathAdministrators)
    .innerJoin(
      connections,
      and(
        eq(connections.userId, deathAdministrators.userId),
        eq(connections.otherUserId, deathAdministrators.administratorUserId),
      ),
    )
    .innerJoin(deathCases, eq(deathCases.userId, deathAdministrators.userId))
    .innerJoin(users, eq(users.id, deathCases.userId))
    .leftJoin(memorialPages, ownMemorialPage())
    .where(
      and(
        eq(deathAdministrators.administratorUserId, administratorId),
        eq(deathCases.state, 'suspected'),
        notExists(
          db
            .select({ id: deathConfirmations.id })
            .from(deathConfirmations)
            .where(
              and(
                eq(deathConfirmations.caseId, deathCases.id),
                eq(deathConfirmations.administratorUserId, administratorId),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(deathCases.openedAt), asc(deathCases.userId));
}

/** The header's read: the caller themself when suspected or in grace, else an administered member. */
export async function deathSuspectedUser(
  deps: DeathDeps,
  callerId: string,
): Promise<SuspectedUser | undefined> {
  const [self] = await deps.db
    .select(suspectedColumns)
    .from(deathCases)
    .innerJoin(users, eq(users.id, deathCases.userId))
    .leftJoin(memorialPages, ownMemorialPage())
    .where(and(eq(deathCases.userId, callerId), inArray(deathCases.state, ['suspected', 'grace'])));
  if (self) return self;
  const [administered] = await administeredSuspected(deps.db, callerId);
  return administered;
}

export async function administeredUserWithSuspectedDeath(
  deps: DeathDeps,
  callerId: string,
): Promise<string | null> {
  const [first] = await administeredSuspected(deps.db, callerId);
  return first?.userId ?? null;
}
