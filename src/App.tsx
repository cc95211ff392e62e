import { RouterProvider } from 'react-router';
import { RateLimitToasts } from './components/ui/RateLimitToasts';
import { I18nProvider } from './i18n/I18nProvider';
import { ClientStateProvider } from './services/clientState';
import { SessionProvider } from './services/session/SessionProvider';
import type { AppRouter } from './screens/router';
import { ThemeRoot } from './theme/ThemeRoot';

// TanStack Query is provided by each screen and member-only part of the frame
// (`services/queryClient.tsx`), so that it stays out of the entry route.
export function App({ router }: { router: AppRouter }) {
  return (
    <ThemeRoot>
      <I18nProvider>
        <RateLimitToasts />
        <ClientStateProvider fallback={<p>Loading...</p>}>
          <SessionProvider navigate={(to) => void router.navigate(to)}>
            <RouterProvider router={router} />
          </SessionProvider>
        </ClientStateProvider>
      </I18nProvider>
    </ThemeRoot>
  );
}
