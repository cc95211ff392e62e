import { eq, lt } from 'drizzle-orm';
import type { Db } from '../db/database';
import { spentProofs } from '../db/schema';
import { hashSecretToken } from './accounts/secretTokens';

/** What kind of proof a key names, so that two kinds can never spend each other. */
export type ProofKind = 'integration-link' | 'provider-assertion';

/** Only a digest of the proof is kept: the table holds nothing a reader could replay. */
const keyOf = (kind: ProofKind, proof: string) => `${kind}:${hashSecretToken(proof)}`;

/**
 * Marks `proof` used, in `db` (the transaction of what the proof allows, where there is one).
 * Answers false when it was already used: the primary key makes one of two concurrent spends
 * wait for the other and then find the row.
 */
export async function spendProof(
  db: Db,
  kind: ProofKind,
  proof: string,
  times: { now: Date; expiresAt: Date },
): Promise<boolean> {
  const spent = await db
    .insert(spentProofs)
    .values({ proofKey: keyOf(kind, proof), spentAt: times.now, expiresAt: times.expiresAt })
    .onConflictDoNothing()
    .returning({ key: spentProofs.proofKey });
  return spent.length === 1;
}

/** Gives a proof back when what it was spent on did not happen after all. */
export async function unspendProof(db: Db, kind: ProofKind, proof: string): Promise<void> {
  await db.delete(spentProofs).where(eq(spentProofs.proofKey, keyOf(kind, proof)));
}

/** Rows of proofs that have expired: an expired proof is refused before its row is read. */
export async function sweepSpentProofs(db: Db, before: Date): Promise<number> {
  const removed = await db
    .delete(spentProofs)
    .where(lt(spentProofs.expiresAt, before))
    .returning({ key: spentProofs.proofKey });
  return removed.length;
}
