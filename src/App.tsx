import type { FluentBundle } from '@fluent/bundle';
import { RouterProvider } from 'react-router';
import { RateLimitToasts } from './components/ui/RateLimitToasts';
import { I18nProvider } from './i18n/I18nProvider';
import {
  ClientStateActorProvider,
  type ClientStateActor,
} from './services/clientState/clientState';
import { SessionProvider } from './services/session/SessionProvider';
import type { AppRouter } from './screens/router';
import { ThemeRoot } from './theme/ThemeRoot';

// TanStack Query is provided by each screen and member-only part of the frame
// (`services/queries/queryClient.tsx`), so that it stays out of the entry route.
export function App({
  router,
  bundle,
  clientState,
}: {
  router: AppRouter;
  bundle: FluentBundle;
  clientState: ClientStateActor;
}) {
  return (
    <ThemeRoot>
      <I18nProvider bundle={bundle}>
        <RateLimitToasts />
        <ClientStateActorProvider actor={clientState}>
          <SessionProvider navigate={(to) => void router.navigate(to)}>
            <RouterProvider router={router} />
          </SessionProvider>
        </ClientStateActorProvider>
      </I18nProvider>
    </ThemeRoot>
  );
}
