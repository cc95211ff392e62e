/** Where a signed-in user lands when nothing else was asked for. */
export const DEFAULT_AFTER_LOGIN = '/dashboard';

/** A path of this site only: "/x", never "//host", "/\\host" or an absolute URL. */
function isLocalPath(candidate: string | null | undefined): candidate is string {
  return (
    typeof candidate === 'string' &&
    candidate.startsWith('/') &&
    !candidate.startsWith('//') &&
    !candidate.includes('\\')
  );
}

/**
 * The page first asked for (postLoginRedirectUrl), else the `callbackUrl` the
 * session layer passed along, else the dashboard; never the login screen itself.
 */
export function afterLoginTarget(
  postLoginRedirectUrl: string | null,
  callbackUrl: string | null,
): string {
  for (const candidate of [postLoginRedirectUrl, callbackUrl]) {
    if (isLocalPath(candidate) && !candidate.startsWith('/login')) return candidate;
  }
  return DEFAULT_AFTER_LOGIN;
}
