import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import { timeCapsuleLetters } from '../../db/schema';
import { dueAtAfterDeath, type DeathRule } from './rules';
import type { TimecapsuleDeps } from './timecapsuleDeps';

/** The member's death-triggered letters not delivered yet: those a death releases and a restoration holds back. */
const deathLettersOf = (userId: string) =>
  and(
    eq(timeCapsuleLetters.senderUserId, userId),
    ne(timeCapsuleLetters.rule, 'date'),
    isNull(timeCapsuleLetters.deliveredAt),
  );

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
      .where(and(deathLettersOf(userId), isNull(timeCapsuleLetters.dueAt)))
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

/**
 * Called when a member restores their account: letters given a due time by the release and
 * not delivered yet wait again for a death. Answers the ids of the letters held back.
 */
export async function holdLettersOnRestoration(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
): Promise<string[]> {
  const held = await db
    .update(timeCapsuleLetters)
    .set({ dueAt: null })
    .where(and(deathLettersOf(userId), isNotNull(timeCapsuleLetters.dueAt)))
    .returning({ id: timeCapsuleLetters.id });
  return held.map((letter) => letter.id);
}
