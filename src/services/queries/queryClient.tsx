import {
  hydrate,
  QueryClient,
  QueryClientContext,
  QueryClientProvider,
  type DehydratedState,
} from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';

/**
 * The app's one TanStack Query client. It is not provided above the router: TanStack Query
 * loads with the first screen or member-only part of the frame that
 * uses it, not with the entry route. Each of those is wrapped in
 * `QueryLayer`, so they all share this client and its cache.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 30_000 } },
});

/** Provides the app's client, unless one is provided above already (component tests). */
export function QueryLayer({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  if (outer) return children;
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/**
 * Puts the queries a page rendered on the server was drawn from into the app's cache, before
 * the page is hydrated: TanStack Query's own hydration, so the screens find their answers
 * under the keys they read and ask the API nothing.
 */
export function hydratePage(state: DehydratedState): void {
  hydrate(queryClient, state);
}
