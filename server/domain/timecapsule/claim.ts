import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { letterDeliveries, timeCapsuleLetterRecipients, users } from '../../db/schema';
import { notFound } from '../errors';
import { hashSecretToken } from '../accounts/secretTokens';
import type { TimecapsuleDeps } from './timecapsuleDeps';

/**
 * POST /v1/time_capsule_letter/claim: a member opening the link mailed to a non-member
 * recipient. The link works only for the member whose (verified) email is the one the letter
 * was addressed to; it binds the delivery to them, and keeps working for them afterwards.
 * Anything else answers 404, so a leaked link tells nothing. Answers the letter id.
 */
export async function claimGuestLetter(
  { db }: Pick<TimecapsuleDeps, 'db'>,
  userId: string,
  token: string,
): Promise<string> {
  const [claimed] = await db
    .update(letterDeliveries)
    .set({ recipientUserId: userId })
    .from(timeCapsuleLetterRecipients)
    .where(
      and(
        eq(letterDeliveries.claimTokenHash, hashSecretToken(token, 'hex')),
        eq(timeCapsuleLetterRecipients.id, letterDeliveries.recipientId),
        or(isNull(letterDeliveries.recipientUserId), eq(letterDeliveries.recipientUserId, userId)),
        sql`lower(${timeCapsuleLetterRecipients.email}) = (
          select lower(${users.email}) from ${users} where ${users.id} = ${userId}
        )`,
      ),
    )
    .returning({ letterId: letterDeliveries.letterId });
  if (!claimed) throw notFound('letter');
  return claimed.letterId;
}
