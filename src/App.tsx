import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { I18nProvider } from './i18n/I18nProvider';
import { ClientStateProvider } from './services/clientState';
import { SessionProvider } from './services/session/SessionProvider';
import { router } from './screens/router';
import { ThemeRoot } from './theme/ThemeRoot';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 30_000 } },
});

export function App() {
  return (
    <ThemeRoot>
      <I18nProvider>
        <QueryClientProvider client={queryClient}>
          <ClientStateProvider fallback={<p>Loading...</p>}>
            <SessionProvider navigate={(to) => void router.navigate(to)}>
              <RouterProvider router={router} />
            </SessionProvider>
          </ClientStateProvider>
        </QueryClientProvider>
      </I18nProvider>
    </ThemeRoot>
  );
}
