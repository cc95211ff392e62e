import { createBrowserRouter, type RouteObject } from 'react-router';

/**
 * Every route of the spec, each a lazy screen so that the entry bundle stays small.
 * A screen module exports `Component`.
 */
export const routes: RouteObject[] = [
  { path: '/', lazy: () => import('./home/HomeScreen') },
  { path: '*', lazy: () => import('./notFound/NotFoundScreen') },
];

export const router = createBrowserRouter(routes);
