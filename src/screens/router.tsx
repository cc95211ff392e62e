import { createBrowserRouter, matchRoutes, type HydrationState } from 'react-router';
import { routes } from './routes';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The browser's router over every route. Hydrating a page the server rendered, the screens of
 * its route are loaded first and the router starts from the server's data, as React Router's
 * guide to server rendering with lazy routes does, so the first render draws what the server
 * drew.
 */
export async function createAppRouter(hydrationData?: HydrationState): Promise<AppRouter> {
  if (hydrationData) {
    const lazyMatches = (matchRoutes(routes, window.location) ?? []).filter(
      ({ route }) => typeof route.lazy === 'function',
    );
    await Promise.all(
      lazyMatches.map(async ({ route }) => {
        const loaded = await (route.lazy as () => Promise<object>)();
        Object.assign(route, { ...loaded, lazy: undefined });
      }),
    );
  }
  return createBrowserRouter(routes, hydrationData ? { hydrationData } : {});
}
