import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App';
import { bundleFrom, loadBundle } from './i18n/I18nProvider';
import { createAppRouter } from './screens/router';
import { PAGE_SESSION_ID } from '../contract/pages/pageHandover';
import { startClientState } from './services/clientState/clientState';
import { asOfNow, takePageData } from './services/hydration/pageData';
import { loadSessionRuntime } from './services/session/SessionProvider';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

/**
 * A page the server rendered (src/entry-server.tsx) is hydrated in place, from the data it
 * carries; any other page is rendered here. Either way the translations and the client state
 * are ready before the first render, as they were on the server.
 */
async function start(root: HTMLElement) {
  // A member's page (it carries their session) runs the session machine at once: its chunk
  // loads beside the translations. A visitor's page loads it after the first render.
  if (document.getElementById(PAGE_SESSION_ID)) void loadSessionRuntime();
  const pageData = takePageData();
  const bundle = loadBundle().catch((error: unknown) => {
    // The page still works, its messages shown by their ids.
    console.error('translation load failed', error);
    return bundleFrom('');
  });
  const [translations, clientState] = await Promise.all([bundle, startClientState()]);
  const router = await createAppRouter(pageData?.hydration);
  if (pageData) {
    const { hydratePage } = await import('./services/queries/queryClient');
    hydratePage(asOfNow(pageData.queries));
  }
  const app = (
    <StrictMode>
      <App router={router} bundle={translations} clientState={clientState} />
    </StrictMode>
  );
  if (pageData) hydrateRoot(root, app);
  else createRoot(root).render(app);
}
void start(container);
