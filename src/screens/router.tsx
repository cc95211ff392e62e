import { createBrowserRouter } from 'react-router';
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
