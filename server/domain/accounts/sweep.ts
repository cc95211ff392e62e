import { lt } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  accountTokens,
  emailChanges,
  loginThrottle,
  refreshTokens,
  unlockLinks,
} from '../../db/schema';
import { sweepSpentProofs } from '../spentProofs';

/** Expired links and tokens are kept a day longer, so that late attempts still read as such in logs. */
const GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes what can no longer matter: closed throttle windows, and links (unlock links too),
 * refresh tokens and spent proofs past their expiry. Idempotent, so any number of instances may run it at once.
 */
export async function sweepExpiredAccountData(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - GRACE_MS);
  const throttle = await db
    .delete(loginThrottle)
    .where(lt(loginThrottle.resetsAt, now))
    .returning({ key: loginThrottle.key });
  const links = await db
    .delete(accountTokens)
    .where(lt(accountTokens.expiresAt, before))
    .returning({ hash: accountTokens.tokenHash });
  const tokens = await db
    .delete(refreshTokens)
    .where(lt(refreshTokens.expiresAt, before))
    .returning({ hash: refreshTokens.tokenHash });
  const emailLinks = await db
    .delete(emailChanges)
    .where(lt(emailChanges.expiresAt, before))
    .returning({ hash: emailChanges.tokenHash });
  const unlocks = await db
    .delete(unlockLinks)
    .where(lt(unlockLinks.expiresAt, before))
    .returning({ hash: unlockLinks.tokenHash });
  const proofs = await sweepSpentProofs(db, before);
  return (
    throttle.length + links.length + tokens.length + emailLinks.length + unlocks.length + proofs
  );
}
