import { matchRoutes } from 'react-router';
import { screenRoutes } from '../../src/contract/pages/routeTable';

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
