import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from '../components/shell/AppLayout';
import { RouteLoading } from '../components/shell/RouteLoading';
import { screenRoutes } from './routeTable';

type ScreenModule = Pick<RouteObject, 'Component'>;

// Each screen is its own lazy chunk, so that the entry bundle stays small.
const screenModules = import.meta.glob<ScreenModule>('./*/*Screen.tsx');

function loadScreen(screen: string): () => Promise<ScreenModule> {
  const load = screenModules[`./${screen}.tsx`];
  if (!load) throw new Error(`routeTable names a screen that does not exist: ${screen}`);
  return load;
}

/** Every route of the spec (`routeTable.ts`) inside the app frame (header, menus, footer). */
export const routes: RouteObject[] = [
  {
    Component: AppLayout,
    HydrateFallback: RouteLoading,
    children: screenRoutes.map(({ path, screen }) => ({ path, lazy: loadScreen(screen) })),
  },
];

export const router = createBrowserRouter(routes);
