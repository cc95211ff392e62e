import type { ComponentType } from 'react';
import type { LoaderFunction, RouteObject } from 'react-router';
import { AppLayout } from '../components/shell/AppLayout';
import { RouteLoading } from '../components/shell/RouteLoading';
import { RouteTitle } from '../components/shell/documentTitle';
import { screenRoutes } from '../../contract/pages/routeTable';

interface ScreenModule {
  Component: ComponentType;
  /** Starts the screen's first reads as soon as its chunk is in, before its first render. */
  loader?: LoaderFunction;
}

// Each screen is its own lazy chunk, so that the entry bundle stays small.
const screenModules = import.meta.glob<ScreenModule>('./*/*Screen.tsx');

/**
 * The route's screen, inside the app's TanStack Query client, which loads beside it (screens
 * query the API; the entry route does not carry the query library), after the route's title,
 * which the screen may name more closely.
 */
function loadScreen(
  screen: string,
  titleId: string,
): () => Promise<Pick<RouteObject, 'Component' | 'loader'>> {
  const load = screenModules[`./${screen}.tsx`];
  if (!load) throw new Error(`routeTable names a screen that does not exist: ${screen}`);
  return async () => {
    const [{ Component: Screen, loader }, { QueryLayer }] = await Promise.all([
      load(),
      import('../services/queries/queryClient'),
    ]);
    return {
      ...(loader ? { loader } : {}),
      Component: () => (
        <QueryLayer>
          <RouteTitle titleId={titleId} />
          <Screen />
        </QueryLayer>
      ),
    };
  };
}

/**
 * Every route (`routeTable.ts`) inside the app frame (header, menus, footer). The
 * browser's router (`router.tsx`) and the server's render (`src/entry-server.tsx`) both use
 * these.
 */
export const routes: RouteObject[] = [
  {
    Component: AppLayout,
    HydrateFallback: RouteLoading,
    children: screenRoutes.map(({ path, screen, title }) => ({
      path,
      lazy: loadScreen(screen, title),
    })),
  },
];
