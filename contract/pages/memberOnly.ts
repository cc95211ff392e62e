import { matchRoutes } from 'react-router';
import { screenRoutes } from './routeTable';

const routes = screenRoutes.map((route) => ({ path: route.path, memberOnly: route.memberOnly }));

/**
 * True when `pathname` is a member-only route of `routeTable.ts` (matched as the router
 * matches, so `/memory/top/me` is not `/memory/:memorialPageId`). The one list both sides use:
 * the client sends a visitor whose first session answer is "not signed in" to /login
 * (`SessionProvider`), and the server redirects a page request without a session cookie
 * (server/pages/spa.ts).
 */
export function isMemberOnlyPath(pathname: string): boolean {
  return matchRoutes(routes, pathname)?.at(-1)?.route.memberOnly === true;
}

/**
 * The cookie in which the server's redirect to /login keeps the page a visitor asked for (path
 * and query), where the client keeps it in memory (`nav.postLoginRedirectUrl`) when it sends
 * them itself: the client moves it there when it starts and deletes it, so that both ways end
 * on plain `/login` and return to the same page after the sign-in. Not httpOnly (the client
 * reads it); short-lived; what it holds is checked as any return target (`afterLoginTarget`).
 */
export const RETURN_TO_COOKIE = 'shinobu.return-to';
export const RETURN_TO_MAX_AGE_S = 300;

/** The page the server's redirect remembered, if any, removed from the cookies. */
export function takeReturnTo(doc: Document = document): string | null {
  const prefix = `${RETURN_TO_COOKIE}=`;
  const pair = doc.cookie.split('; ').find((candidate) => candidate.startsWith(prefix));
  if (pair === undefined) return null;
  doc.cookie = `${RETURN_TO_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  try {
    return decodeURIComponent(pair.slice(prefix.length)) || null;
  } catch {
    return null;
  }
}
