import type { ShareToken } from '../../services/api/memorial';

/** Where a shared invitation link lands (docs/memorial.md, "Screens"). */
export const INVITATION_PATH = '/memory/invitation';

/**
 * The link an admin shares: it carries shareToken and invitingUserId (the invitation),
 * setAdmin, and `pet` for an admin link of a pet's page, so that a signed-out invitee can
 * register in pet mode with the token as the pet-admin target.
 */
export function invitationUrl(origin: string, share: ShareToken, isPet: boolean): string {
  const query = new URLSearchParams({
    shareToken: share.token,
    invitingUserId: share.invitingUserId,
    setAdmin: String(share.setAdmin),
  });
  if (isPet && share.setAdmin) query.set('pet', 'true');
  return `${origin}${INVITATION_PATH}?${query}`;
}

/** LINE's share page for a URL (social-plugins.line.me's share URL). */
export const lineShareUrl = (url: string) =>
  `https://social-plugins.line.me/lineit/share?url=${encodeURIComponent(url)}`;
