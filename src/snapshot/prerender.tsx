/**
 * The server's render of a route as its reader sees it once everything has loaded (the
 * "snapshot", docs/app-shell.md "First paint of /login", "First paint of a public memorial
 * page" and "First paint of a member's ending note"). Built by Vite as a server bundle
 * (`vite.config.ts`, plugin `shinobu-snapshot`, into the build's `ssr/` folder); never part of
 * the client's bundle. The build runs it once for `/login`; the server loads it at start and
 * renders per request a public memorial page, with the answers the API gives a visitor seeded
 * into a query client of its own, and a member's ending note, with the answers the member's
 * page carries handed to the route's loader. The same components as the app: the route
 * table's layout and screen, the theme, the translations, the client state and the session
 * (a visitor's, or the member's as the session cookie holds it).
 */
import { LocalizationProvider, ReactLocalization } from '@fluent/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { ServerStyleSheet, StyleSheetManager } from 'styled-components';
import { createActor, fromPromise, waitFor } from 'xstate';
import { bundleFrom } from '../i18n/I18nProvider';
import { clientStateMachine } from '../machines/clientState';
import { ClientStateActorProvider } from '../services/clientState';
import type { SessionUser } from '../services/api/session';
import type { ServerLoadContext } from '../services/pageAnswers';
import { SessionContext, type SessionValue } from '../services/session/SessionContext';
import { routes } from '../screens/routes';
import { ThemeRoot } from '../theme/ThemeRoot';
import { seedQueryCache, type SeededAnswer } from './pageAnswers';

export type { SeededAnswer } from './pageAnswers';

export interface Snapshot {
  /** The markup of the app's root, as the client would render into #root. */
  html: string;
  /** The styles that markup needs (styled-components' rules, without its rehydration marks). */
  css: string;
}

const refused = () => Promise.reject(new Error('the snapshot is static'));

/** A session that has been asked for and is known: a visitor's (no user) or a member's. */
function knownSession(user: SessionUser | null): SessionValue {
  return {
    status: user ? 'authenticated' : 'unauthenticated',
    user,
    accessToken: () => undefined,
    update: refused,
    signIn: refused,
    signOut: refused,
  };
}

const visitor = knownSession(null);

/**
 * The member a page is drawn for: the session cookie's user, and the answers their page
 * carries by API path (server/routes/memberPage.ts), which the route's loader takes as the
 * browser's would take them from the page.
 */
export interface MemberRender {
  user: SessionUser;
  pageAnswers: Record<string, unknown>;
}

/**
 * Renders a URL (path and query) for a signed-out visitor with the reads' answers seeded, or,
 * given `member`, for that member.
 */
export type SnapshotRenderer = (
  url: string,
  answers?: readonly SeededAnswer[],
  member?: MemberRender,
) => Promise<Snapshot>;

/**
 * A renderer with the Fluent resource `translations`: the translations, the routes and a
 * client state in its ready state are made once and shared by every render (nothing in a
 * render changes them: effects do not run on the server).
 */
export async function createSnapshotRenderer(translations: string): Promise<SnapshotRenderer> {
  const handler = createStaticHandler(routes);
  // The server keeps no browser storage: nothing persisted to restore.
  const clientState = createActor(
    clientStateMachine.provide({ actors: { restorePersisted: fromPromise(async () => ({})) } }),
  ).start();
  await waitFor(clientState, (snapshot) => snapshot.matches('ready'));
  // Node has no DOM to parse markup in translations with (`<Localized elems>`); the frame and
  // the screens rendered here use none, so a message is its text.
  const asText = (text: string) => [{ nodeName: '#text', textContent: text } as Node];
  const l10n = new ReactLocalization([bundleFrom(translations)], asText);

  return async (url, answers = [], member) => {
    // The screens read through TanStack Query: a client of this render's own, holding the
    // answers, provided above the routes (QueryLayer gives way to an outer provider).
    const queryClient = new QueryClient({
      defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
    });
    seedQueryCache(queryClient, answers);
    const pageAnswers = new Map(Object.entries(member?.pageAnswers ?? {}));
    const requestContext: ServerLoadContext = {
      queryClient,
      takePageAnswer: (path) => pageAnswers.get(path),
    };
    const context = await handler.query(new Request(new URL(url, 'http://snapshot.invalid')), {
      requestContext,
    });
    if (context instanceof Response) throw new Error(`${url} answers a redirect`);
    const router = createStaticRouter(handler.dataRoutes, context);
    const sheet = new ServerStyleSheet();
    try {
      const html = renderToString(
        <StyleSheetManager sheet={sheet.instance}>
          <ThemeRoot>
            <LocalizationProvider l10n={l10n}>
              <ClientStateActorProvider actor={clientState}>
                <SessionContext.Provider value={member ? knownSession(member.user) : visitor}>
                  <QueryClientProvider client={queryClient}>
                    <StaticRouterProvider router={router} context={context} hydrate={false} />
                  </QueryClientProvider>
                </SessionContext.Provider>
              </ClientStateActorProvider>
            </LocalizationProvider>
          </ThemeRoot>
        </StyleSheetManager>,
      );
      return { html, css: plainCss(sheet.getStyleTags()) };
    } finally {
      sheet.seal();
      queryClient.clear();
    }
  };
}

/** Renders `pathname` once for a signed-out visitor with the Fluent resource `translations`. */
export async function renderSnapshot(pathname: string, translations: string): Promise<Snapshot> {
  return (await createSnapshotRenderer(translations))(pathname);
}

/**
 * The rules inside styled-components' `<style>` tags, without the tags and the
 * `data-styled.gN[id="…"]{content:"…"}` records the client would rehydrate from.
 */
export function plainCss(styleTags: string): string {
  return [...styleTags.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)]
    .map((match) => match[1]!)
    .join('')
    .replace(/data-styled\.g\d+\[id="[^"]*"\]\{content:"[^"]*"\}/g, '')
    .replace(/\/\*!sc\*\//g, '')
    .replace(/\n+/g, '\n')
    .trim();
}
