import { and, asc, eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { connections, deathCases, userDeaths, users } from '../../db/schema';
import { revokeAllOfUser } from '../accounts/refreshTokens';
import { notify } from '../social/notifications';
import { releaseLettersOnDeath } from '../timecapsule/death';
import { afterDeathOf, carryOutChoices, carryOutPage, type ReleaseChoicesDeps } from './afterDeath';
import { recordAudit } from './audit';
import type { DeathDeps } from './deathDeps';
import { fullName } from './mails';

/** What a release needs: the death rules' own, and the texts of the mails it writes. */
export type ReleaseDeps = DeathDeps & ReleaseChoicesDeps;

/** Cases released per transaction; a pass takes batches until none is due. */
const RELEASE_BATCH = 20;

/**
 * Releases every case whose grace period is over, each exactly once: the rows are claimed
 * with FOR UPDATE SKIP LOCKED and turned `released` in the transaction that releases them,
 * so concurrent passes (or instances) never release the same case twice. Answers how many.
 */
export async function releaseDueCases(deps: ReleaseDeps): Promise<number> {
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
  deps: ReleaseDeps,
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
  const [member] = await tx
    .select({ lastName: users.lastName, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, userId));
  const name = member ? fullName(member) : '';
  const released = { caseId, userId, name, dateOfDeath };
  // The page as the member chose: the mourning view (today's default), unchanged or hidden.
  const choices = await afterDeathOf(tx, userId);
  const page = await carryOutPage(tx, released, choices, now);
  // Kept in the release's entry: restoring the account empties only a date the release wrote.
  const deathDateFilled = page.deathDateFilled;
  // Read-only memorial content: every session ends and sign-in is refused (onMemberSignIn).
  await revokeAllOfUser(tx, userId, deps.clock);
  const letters = await releaseLettersOnDeath({ db: tx }, userId, now, dateOfDeath);
  const connected = await tx
    .select({ id: connections.otherUserId })
    .from(connections)
    .where(eq(connections.userId, userId));
  const payload = {
    userId,
    memorialPageId: page.memorialPageId ?? '',
    name,
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
  // The deletion's day and the archive; the administrators are told what was done.
  await carryOutChoices(deps, tx, released, choices, page, now);
}
