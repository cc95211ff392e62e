import { matchRoutes } from 'react-router';
import { DEFAULT_AFTER_LOGIN } from './login/redirect';
import { screenRoutes } from './routeTable';

const routes = screenRoutes.map((route) => ({ path: route.path, memberOnly: route.memberOnly }));

/**
 * True when `pathname` is a member-only route of `routeTable.ts` (matched as the router
 * matches, so `/memory/top/me` is not `/memory/:memorialPageId`). The one list both sides use:
 * the client sends a visitor whose first session answer is "not signed in" to /login
 * (`SessionProvider`), and the server redirects a page request without a session cookie
 * (server/routes/spa.ts).
 */
export function isMemberOnlyPath(pathname: string): boolean {
  return matchRoutes(routes, pathname)?.at(-1)?.route.memberOnly === true;
}

/**
 * Where the server sends a visitor who asked for the member-only page `here` (path and
 * query): /login, as the client's navigation does. The client keeps the page to return to in
 * memory (`nav.postLoginRedirectUrl`); a redirect can only carry it in the address, as the
 * `callbackUrl` the login screen goes on to, left out when it is the page a sign-in goes to
 * anyway (the dashboard), so that `/dashboard` ends on `/login` exactly as in the client.
 */
export function loginRedirectFor(here: string): string {
  return here === DEFAULT_AFTER_LOGIN ? '/login' : `/login?callbackUrl=${encodeURIComponent(here)}`;
}
