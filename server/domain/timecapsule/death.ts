import { and, eq, isNull, ne } from 'drizzle-orm';
import { timeCapsuleLetters } from '../../db/schema';
import { dueAtAfterDeath, type DeathRule } from './rules';
import type { TimecapsuleDeps } from './timecapsuleDeps';

/**
 * Called by the death-confirmation capability once a member's death is confirmed: every
 * death-triggered letter of theirs gets its due time from its rule, and the delivery loop
 * takes it from there. Idempotent: a letter already released keeps its time. Answers the
 * number of letters released. The confirmation passes its transaction (`{ db: tx }`), so the
 * letters are released with the death or not at all.
 */
export async function releaseLettersOnDeath(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
  confirmedAt: Date,
  dateOfDeath: string | null = null,
): Promise<number> {
  return db.transaction(async (tx) => {
    const waiting = await tx
      .select({
        id: timeCapsuleLetters.id,
        rule: timeCapsuleLetters.rule,
        delayDays: timeCapsuleLetters.delayDays,
        anniversaryYears: timeCapsuleLetters.anniversaryYears,
        afterDeathDate: timeCapsuleLetters.afterDeathDate,
      })
      .from(timeCapsuleLetters)
      .where(
        and(
          eq(timeCapsuleLetters.senderUserId, userId),
          ne(timeCapsuleLetters.rule, 'date'),
          isNull(timeCapsuleLetters.dueAt),
          isNull(timeCapsuleLetters.deliveredAt),
        ),
      )
      .for('update');
    for (const letter of waiting) {
      await tx
        .update(timeCapsuleLetters)
        .set({ dueAt: dueAtAfterDeath(letter as DeathRule, confirmedAt, dateOfDeath) })
        .where(eq(timeCapsuleLetters.id, letter.id));
    }
    return waiting.length;
  });
}
