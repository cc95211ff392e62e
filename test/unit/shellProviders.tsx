import { readFileSync } from 'node:fs';
import path from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { FluentVariable } from '@fluent/bundle';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { ThemeProvider } from 'styled-components';
import { bundleFrom, I18nProvider } from '../../src/i18n/I18nProvider';
import { ClientStateProvider } from '../../src/services/clientState/clientState';
import { theme } from '../../src/theme/tokens';

const bundle = bundleFrom(
  readFileSync(path.join(__dirname, '../../src/i18n/ja/translation.ftl'), 'utf8'),
);

/** A message of the app's Japanese translation as the screens show it (a missing id throws). */
export function translated(id: string, args?: Record<string, FluentVariable>): string {
  const pattern = bundle.getMessage(id)?.value;
  if (!pattern) throw new Error(`no translation for ${id}`);
  return bundle.formatPattern(pattern, args);
}

/** The app's real providers (theme, Japanese translations, queries, client state). */
export function AppProviders({ children }: { children: ReactNode }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <ThemeProvider theme={theme}>
      <I18nProvider bundle={bundle}>
        <QueryClientProvider client={queryClient}>
          <ClientStateProvider fallback={null}>{children}</ClientStateProvider>
        </QueryClientProvider>
      </I18nProvider>
    </ThemeProvider>
  );
}

/** Renders routes in a memory router inside the app's providers; returns the router. */
export function renderRoutes(routes: RouteObject[], initialEntry = '/') {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

/** Renders one element at `/` inside the app's providers and a router. */
export function renderInApp(element: ReactNode, initialEntry = '/') {
  return renderRoutes([{ path: '*', element }], initialEntry);
}
