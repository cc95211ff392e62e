import { and, eq, gt, isNull } from 'drizzle-orm';
import type { ServedOf } from '../../../contract/endpoint';
import type { shareToken } from '../../../contract/memorial';
import { connectionRequests, memorialPages, shareTokens } from '../../db/schema';
import { hashSecretToken, newSecretToken } from '../accounts/secretTokens';
import { DomainError } from '../errors';
import { connectBothWays, pendingRequestsBetween } from '../connections';
import { isUuid } from './access';
import { makeAdmin } from './admins';
import type { MemorialDeps } from './memorialDeps';

/** An invitation link stays usable for a week; accepting it ends it (expire_share_token). */
export const SHARE_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface Invitation {
  token: string;
  invitingUserId: string;
}

export type CreatedShareToken = ServedOf<typeof shareToken>;

export const invalidInvitation = () =>
  new DomainError('not_found', 'invalid_invitation', 'invitation is not valid');

/** An admin's invitation to the page; with setAdmin the invitee becomes an admin too. */
export async function createShareToken(
  deps: MemorialDeps,
  pageId: string,
  invitingUserId: string,
  setAdmin: boolean,
): Promise<CreatedShareToken> {
  const token = newSecretToken();
  const expiresAt = new Date(deps.clock.now().getTime() + SHARE_TOKEN_TTL_MS);
  await deps.db.insert(shareTokens).values({
    tokenHash: hashSecretToken(token, 'hex'),
    memorialPageId: pageId,
    invitingUserId,
    setAdmin,
    expiresAt,
    createdAt: deps.clock.now(),
  });
  return { token, invitingUserId, memorialPageId: pageId, setAdmin, expiresAt };
}

/** The token's row while it is live: right inviter, not expired, not ended. */
async function liveToken(deps: MemorialDeps, invitation: Invitation) {
  if (!isUuid(invitation.invitingUserId)) return undefined;
  const [row] = await deps.db
    .select()
    .from(shareTokens)
    .where(
      and(
        eq(shareTokens.tokenHash, hashSecretToken(invitation.token, 'hex')),
        eq(shareTokens.invitingUserId, invitation.invitingUserId),
        isNull(shareTokens.expiredAt),
        gt(shareTokens.expiresAt, deps.clock.now()),
      ),
    );
  return row;
}

/** A token accepted by someone else no longer serves `userId`. */
const servesUser = (row: { redeemedBy: string | null }, userId: string | undefined) =>
  !row.redeemedBy || row.redeemedBy === userId;

export async function isValidInvitation(
  deps: MemorialDeps,
  invitation: Invitation,
  userId: string | undefined,
): Promise<boolean> {
  const row = await liveToken(deps, invitation);
  return Boolean(row && servesUser(row, userId));
}

/** The page the invitation leads to. */
export async function invitationPageId(
  deps: MemorialDeps,
  invitation: Invitation,
  userId: string | undefined,
): Promise<string> {
  const row = await liveToken(deps, invitation);
  if (!row || !servesUser(row, userId)) throw invalidInvitation();
  return row.memorialPageId;
}

/**
 * Accepts the invitation: connects the invitee and the inviting member both ways (an open
 * request between them is settled as accepted) and records the invitee on the token, which
 * lets them add themself as admin when the token says setAdmin.
 */
export async function connectToInvitingUser(
  deps: MemorialDeps,
  invitation: Invitation,
  userId: string,
): Promise<void> {
  const row = await liveToken(deps, invitation);
  if (!row || !servesUser(row, userId) || row.invitingUserId === userId) {
    throw invalidInvitation();
  }
  const inviter = row.invitingUserId;
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await connectBothWays(tx, { userId }, { userId: inviter }, now);
    await tx
      .update(connectionRequests)
      .set({ status: 'accepted', respondedAt: now })
      .where(pendingRequestsBetween(userId, [inviter]));
    await tx.update(shareTokens).set({ redeemedBy: userId }).where(eq(shareTokens.id, row.id));
  });
}

/** Ends the invitation; it answers invalid from then on. */
export async function expireShareToken(
  deps: MemorialDeps,
  invitation: Invitation,
  userId: string | undefined,
): Promise<void> {
  const row = await liveToken(deps, invitation);
  if (!row || !servesUser(row, userId)) throw invalidInvitation();
  await deps.db
    .update(shareTokens)
    .set({ expiredAt: deps.clock.now() })
    .where(eq(shareTokens.id, row.id));
}

/**
 * Registration in pet mode (petAdmin): the encoded id the new member carries is an admin
 * share token of a pet page. Makes them an admin of that page and ends the token; answers
 * the page id, or undefined when the link is not (or no longer) valid.
 */
export async function redeemPetAdminLink(
  deps: MemorialDeps,
  encodedId: string,
  userId: string,
): Promise<string | undefined> {
  const [row] = await deps.db
    .select({ id: shareTokens.id, memorialPageId: shareTokens.memorialPageId })
    .from(shareTokens)
    .innerJoin(memorialPages, eq(memorialPages.id, shareTokens.memorialPageId))
    .where(
      and(
        eq(shareTokens.tokenHash, hashSecretToken(encodedId, 'hex')),
        eq(shareTokens.setAdmin, true),
        eq(memorialPages.type, 'pet'),
        isNull(shareTokens.expiredAt),
        gt(shareTokens.expiresAt, deps.clock.now()),
      ),
    );
  if (!row) return undefined;
  await deps.db.transaction(async (tx) => {
    await makeAdmin(tx, row.memorialPageId, userId);
    await tx
      .update(shareTokens)
      .set({ redeemedBy: userId, expiredAt: deps.clock.now() })
      .where(eq(shareTokens.id, row.id));
  });
  return row.memorialPageId;
}
