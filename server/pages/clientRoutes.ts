import { matchRoutes } from 'react-router';
import { screenRoutes, type ScreenRoute } from '../../contract/pages/routeTable';

const routeObjects = screenRoutes.map(({ path }) => ({ path }));

/**
 * The params of `pathname` when the client's router would show it the route `routePath` of
 * routeTable.ts (react-router's ranking, so `/memory/top/me` is not `/memory/:memorialPageId`;
 * params decoded as the client's are), else undefined.
 */
export function clientRouteParams(
  pathname: string,
  routePath: string,
): Readonly<Record<string, string | undefined>> | undefined {
  const match = matchRoutes(routeObjects, pathname)?.at(-1);
  return match?.route.path === routePath ? match.params : undefined;
}

/** The route of routeTable.ts the client's router shows for `pathname`, if any. */
export function clientRouteOf(pathname: string): ScreenRoute | undefined {
  const path = matchRoutes(routeObjects, pathname)?.at(-1)?.route.path;
  return screenRoutes.find((route) => route.path === path);
}
