/**
 * A letter link opened by someone who is not yet a member, kept while they register: the
 * activation link arrives by mail and opens a new page, where the client state of the letter
 * screen is gone. The first sign-in afterwards (the activation screen signs in) goes on to
 * the letter. Kept in localStorage for as long as an activation link lives; only the path of
 * the claim screen is kept, which the letter's own mail holds too.
 */
const KEY = 'shinobu:pendingLetterClaim';
const LIFETIME_MS = 24 * 60 * 60 * 1000;

export const letterClaimPath = (token: string) =>
  `/timecapsule/claim?token=${encodeURIComponent(token)}`;

export function rememberLetterClaim(token: string, storage: Storage = localStorage): void {
  storage.setItem(KEY, JSON.stringify({ path: letterClaimPath(token), savedAt: Date.now() }));
}

/** The claim screen's path once, if one was kept and is still fresh; it is forgotten either way. */
export function takeLetterClaim(storage: Storage = localStorage): string | null {
  const raw = storage.getItem(KEY);
  if (raw === null) return null;
  storage.removeItem(KEY);
  try {
    const kept = JSON.parse(raw) as { path?: unknown; savedAt?: unknown };
    const fresh = typeof kept.savedAt === 'number' && Date.now() - kept.savedAt < LIFETIME_MS;
    return fresh && typeof kept.path === 'string' ? kept.path : null;
  } catch {
    return null;
  }
}
