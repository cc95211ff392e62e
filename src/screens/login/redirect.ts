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

/** Pages nobody signs in to reach: the sign-in itself, and the sign-out a 401 may interrupt. */
const NEVER_AFTER_LOGIN = /^\/(login|logout)(?=$|[/?#])/;

/**
 * The page first asked for (postLoginRedirectUrl), else the `callbackUrl` the
 * session layer passed along, else the dashboard; never the login or logout screen.
 */
export function afterLoginTarget(
  postLoginRedirectUrl: string | null,
  callbackUrl: string | null,
): string {
  for (const candidate of [postLoginRedirectUrl, callbackUrl]) {
    if (isLocalPath(candidate) && !NEVER_AFTER_LOGIN.test(candidate)) return candidate;
  }
  return DEFAULT_AFTER_LOGIN;
}
