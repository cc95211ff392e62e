/**
 * The server's render of the app: the one module of src/ the server imports, built by Vite for
 * Node (server/pages/build.ts). React Router's static handler runs the route's loaders and the
 * page is rendered with React's server renderer and styled-components' ServerStyleSheet, with
 * the same components, translations and class names as the browser, which hydrates it in
 * place (src/main.tsx).
 */
import { Writable } from 'node:stream';
import { LocalizationProvider, ReactLocalization } from '@fluent/react';
import { dehydrate, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { ServerStyleSheet } from 'styled-components';
import { createActor, fromPromise, waitFor } from 'xstate';
import { DocumentTitleContext } from './components/shell/documentTitle';
import { bundleFrom } from './i18n/I18nProvider';
import { clientStateMachine } from './machines/clientState';
import { ClientStateActorProvider } from './services/clientState/clientState';
import type { PageData, PreparedRead } from './services/hydration/pageData';
import { toCamelCase } from './services/http/casing';
import { SessionContext, type SessionValue } from './services/session/SessionContext';
import { routes } from './screens/routes';
import { ThemeRoot } from './theme/ThemeRoot';

export type { PageData, PreparedRead } from './services/hydration/pageData';

export interface RenderedPage {
  kind: 'page';
  status: number;
  /** The markup of the app's root. */
  html: string;
  /** styled-components' <style> elements, which the browser's styled-components takes over. */
  styles: string;
  /** The document's title as the page names itself. */
  title: string | undefined;
  /** What the browser hydrates from (services/hydration/pageData.ts). */
  data: PageData;
}

export type RenderResult = RenderedPage | { kind: 'redirect'; location: string };

/** Renders a URL (path and query) for a visitor, with the API's answers the screen reads. */
export type PageRenderer = (url: string, reads?: readonly PreparedRead[]) => Promise<RenderResult>;

/** An answer as the browser's HTTP client reads it: JSON, in camelCase (services/http/casing.ts). */
const asReadByTheClient = (answer: unknown): unknown =>
  toCamelCase(JSON.parse(JSON.stringify(answer)) as unknown);

/**
 * Prefetches each read into `client` as the screens query it: a whole answer with
 * prefetchQuery, a list's first page with prefetchInfiniteQuery (its first page has no cursor).
 */
async function prefetchReads(client: QueryClient, reads: readonly PreparedRead[]): Promise<void> {
  await Promise.all(
    reads.map(({ key, answer, paged }) =>
      paged
        ? client.prefetchInfiniteQuery({
            queryKey: key,
            queryFn: () => asReadByTheClient(answer),
            initialPageParam: null,
          })
        : client.prefetchQuery({ queryKey: key, queryFn: () => asReadByTheClient(answer) }),
    ),
  );
}

const refused = () => Promise.reject(new Error('the server render is static'));

/**
 * The session as the browser's first render has it, before the session layer has answered:
 * the server does not ask it either, so both draw the same.
 */
const sessionBeingLearned: SessionValue = {
  status: 'loading',
  user: null,
  accessToken: () => undefined,
  update: refused,
  signIn: refused,
  activate: refused,
  signOut: refused,
};

/** The whole markup of `element` once every part of it is ready (no fallbacks left in it). */
function renderToText(element: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
      final(done) {
        resolve(Buffer.concat(chunks).toString('utf8'));
        done();
      },
    });
    const stream = renderToPipeableStream(element, {
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
    });
  });
}

/** The server's render, and the translations it renders with for the page's head. */
export interface ServerRender {
  render: PageRenderer;
  translate: (id: string, args?: Record<string, string>) => string;
}

/**
 * A renderer with the Fluent resource `translations`: the translations, the routes and a
 * client state in its ready state are made once and shared by every render (effects do not
 * run on the server, so nothing in a render changes them).
 */
export async function createPageRenderer(translations: string): Promise<ServerRender> {
  const handler = createStaticHandler(routes);
  // The server keeps no browser storage: nothing persisted to restore.
  const clientState = createActor(
    clientStateMachine.provide({ actors: { restorePersisted: fromPromise(async () => ({})) } }),
  ).start();
  await waitFor(clientState, (snapshot) => snapshot.matches('ready'));
  // Node has no DOM to parse markup in translations with (`<Localized elems>`): a message is
  // its text.
  const asText = (text: string) => [{ nodeName: '#text', textContent: text } as Node];
  const bundle = bundleFrom(translations);
  const l10n = new ReactLocalization([bundle], asText);

  const render: PageRenderer = async (url, reads = []) => {
    const context = await handler.query(new Request(new URL(url, 'http://localhost')));
    if (context instanceof Response) {
      return { kind: 'redirect', location: context.headers.get('location') ?? '/' };
    }
    // The screens read through TanStack Query: a client of this render's own, the reads
    // prefetched into it, provided above the routes (QueryLayer gives way to an outer provider).
    const queryClient = new QueryClient({
      defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
    });
    await prefetchReads(queryClient, reads);
    const router = createStaticRouter(handler.dataRoutes, context);
    const sheet = new ServerStyleSheet();
    let title: string | undefined;
    try {
      const html = await renderToText(
        sheet.collectStyles(
          <ThemeRoot>
            <LocalizationProvider l10n={l10n}>
              <ClientStateActorProvider actor={clientState}>
                <SessionContext.Provider value={sessionBeingLearned}>
                  <QueryClientProvider client={queryClient}>
                    <DocumentTitleContext.Provider value={(heard) => (title = heard)}>
                      <StaticRouterProvider router={router} context={context} hydrate={false} />
                    </DocumentTitleContext.Provider>
                  </QueryClientProvider>
                </SessionContext.Provider>
              </ClientStateActorProvider>
            </LocalizationProvider>
          </ThemeRoot>,
        ),
      );
      return {
        kind: 'page',
        status: context.statusCode,
        html,
        styles: sheet.getStyleTags(),
        title,
        data: {
          hydration: {
            loaderData: context.loaderData,
            actionData: context.actionData,
            errors: context.errors,
          },
          queries: dehydrate(queryClient),
        },
      };
    } finally {
      sheet.seal();
      queryClient.clear();
    }
  };
  return { render, translate: (id, args) => l10n.getString(id, args ?? null, id) };
}
