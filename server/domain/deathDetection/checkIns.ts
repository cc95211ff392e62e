import { and, eq, isNull } from 'drizzle-orm';
import { deathCheckIns, deathSettings } from '../../db/schema';
import { hashSecretToken, newSecretToken } from '../accounts/secretTokens';
import { notFound } from '../errors';
import { recordAudit } from './audit';
import type { DeathDeps } from './deathDeps';

export function newCheckInToken(): { token: string; tokenHash: string } {
  const token = newSecretToken();
  return { token, tokenHash: hashSecretToken(token, 'hex') };
}

/** The link in the check-in mail: a page with one button that posts back to it. */
export function checkInLink(publicUrl: string, token: string): string {
  return `${publicUrl}/v1/fpos/check_in/${token}`;
}

/** The member answered a check-in mail: they are alive; 404 for an unknown or closed one. */
export async function answerCheckIn(deps: DeathDeps, token: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [answered] = await tx
      .update(deathCheckIns)
      .set({ answeredAt: now })
      .where(
        and(
          eq(deathCheckIns.tokenHash, hashSecretToken(token, 'hex')),
          isNull(deathCheckIns.answeredAt),
          isNull(deathCheckIns.escalatedAt),
        ),
      )
      .returning({ userId: deathCheckIns.userId });
    if (!answered) throw notFound('check-in');
    await tx
      .update(deathSettings)
      .set({ aliveAt: now })
      .where(eq(deathSettings.userId, answered.userId));
    await recordAudit(tx, {
      userId: answered.userId,
      action: 'check_in_answered',
      actorUserId: answered.userId,
      at: now,
    });
  });
}
