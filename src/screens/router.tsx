import { createBrowserRouter, matchRoutes } from 'react-router';
import { routes } from './routes';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The browser's router over every route. Made when the app starts rather than when its module
 * is evaluated: making it ranks every route and starts the first navigation, work that then
 * ran in the same long task as the evaluation of all the app's code (docs/app-shell.md).
 */
export function createAppRouter(): AppRouter {
  return createBrowserRouter(routes);
}

/**
 * Runs the code of the screens `pathname` shows (their chunks came with the page), so that
 * making the router, which then only finds them loaded, is not the same task as their first
 * evaluation (docs/app-shell.md, "Start-up work").
 */
export async function loadScreensOf(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(({ route }) => (typeof route.lazy === 'function' ? route.lazy() : undefined)),
  );
}
