import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { connections, deathCases, memorialPages, userDeaths, users } from '../../db/schema';
import { revokeAllOfUser } from '../accounts/refreshTokens';
import { notify } from '../social/notifications';
import { releaseLettersOnDeath } from '../timecapsule/death';
import { recordAudit } from './audit';
import type { DeathDeps } from './deathDeps';
import { fullName } from './mails';
import { ownMemorialPage } from '../ownPage';

/** Cases released per transaction; a pass takes batches until none is due. */
const RELEASE_BATCH = 20;

/**
 * Releases every case whose grace period is over, each exactly once: the rows are claimed
 * with FOR UPDATE SKIP LOCKED and turned `released` in the transaction that releases them,
 * so concurrent passes (or instances) never release the same case twice. Answers how many.
 */
export async function releaseDueCases(deps: DeathDeps): Promise<number> {
  let released = 0;
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const due = await tx
        .select({
          id: deathCases.id,
          userId: deathCases.userId,
          dateOfDeath: deathCases.dateOfDeath,
        })
        .from(deathCases)
        .where(and(eq(deathCases.state, 'grace'), lte(deathCases.graceEndsAt, now)))
        .orderBy(asc(deathCases.graceEndsAt))
        .limit(RELEASE_BATCH)
        .for('update', { skipLocked: true });
      for (const dueCase of due) await releaseCase(deps, tx, dueCase, now);
      return due.length;
    });
    released += batch;
    if (batch < RELEASE_BATCH) return released;
  }
}

async function releaseCase(
  deps: DeathDeps,
  tx: Db,
  dueCase: { id: string; userId: string; dateOfDeath: string | null },
  now: Date,
): Promise<void> {
  const { id: caseId, userId, dateOfDeath } = dueCase;
  await tx
    .update(deathCases)
    .set({ state: 'released', releasedAt: now })
    .where(eq(deathCases.id, caseId));
  // Ending-note sections "after my death" read this column (domain/endingnote/deathConfirmation).
  await tx.update(userDeaths).set({ deathConfirmedAt: now }).where(eq(userDeaths.id, userId));
  // The mourning view; the date of death fills an empty one unless it would precede the birth.
  const [page] = await tx
    .update(memorialPages)
    .set({ updatedAt: now })
    .where(ownMemorialPage(userId))
    .returning({
      id: memorialPages.id,
      lastName: memorialPages.lastName,
      firstName: memorialPages.firstName,
      deathDateWasEmpty: sql<boolean>`death_date is null`,
    });
  let deathDateFilled = false;
  if (page) {
    await tx.execute(sql`
      update memorial_pages set mourning_since = ${now.toISOString()}::timestamptz,
        death_date = case when death_date is null and (birth_date is null or birth_date <= ${dateOfDeath}::date)
                          then ${dateOfDeath}::date else death_date end
      where id = ${page.id}`);
    // Kept in the audit entry: restoring the account empties only a date the release wrote.
    const [after] = await tx
      .select({ deathDate: sql<string | null>`death_date` })
      .from(memorialPages)
      .where(eq(memorialPages.id, page.id));
    deathDateFilled = page.deathDateWasEmpty && after?.deathDate != null;
  }
  // Read-only memorial content: every session ends and sign-in is refused (onMemberSignIn).
  await revokeAllOfUser(tx, userId, deps.clock);
  const letters = await releaseLettersOnDeath({ db: tx }, userId, now, dateOfDeath);
  const [member] = await tx
    .select({ lastName: users.lastName, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, userId));
  const connected = await tx
    .select({ id: connections.otherUserId })
    .from(connections)
    .where(eq(connections.userId, userId));
  const payload = {
    userId,
    memorialPageId: page?.id ?? '',
    name: member ? fullName(member) : '',
  };
  for (const { id } of connected) await notify(tx, id, 'death_confirmed', payload, now);
  await recordAudit(tx, {
    userId,
    caseId,
    action: 'released',
    detail: {
      lettersReleased: letters,
      connectionsNotified: connected.length,
      dateOfDeath,
      deathDateFilled,
    },
    at: now,
  });
}
