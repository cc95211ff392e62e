/**
 * The build-time render of `/login` as a visitor sees it once everything has loaded (the
 * "snapshot", docs/app-shell.md "First paint of /login"). Built by Vite as a server bundle
 * (`vite.config.ts`, plugin `shinobu-login-snapshot`) and run once per build; never part of
 * the client's bundle. The same components as the app: the route table's layout and screen,
 * the theme, the translations, the client state and a visitor's session.
 */
import { LocalizationProvider, ReactLocalization } from '@fluent/react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { ServerStyleSheet, StyleSheetManager } from 'styled-components';
import { createActor, waitFor } from 'xstate';
import { bundleFrom } from '../i18n/I18nProvider';
import { clientStateMachine } from '../machines/clientState';
import { ClientStateActorProvider } from '../services/clientState';
import { SessionContext, type SessionValue } from '../services/session/SessionContext';
import { routes } from '../screens/routes';
import { ThemeRoot } from '../theme/ThemeRoot';

export interface Snapshot {
  /** The markup of the app's root, as the client would render into #root. */
  html: string;
  /** The styles that markup needs (styled-components' rules, without its rehydration marks). */
  css: string;
}

const refused = () => Promise.reject(new Error('the snapshot is static'));

/** A visitor whose session has been asked for and is known: not signed in. */
const visitor: SessionValue = {
  status: 'unauthenticated',
  user: null,
  accessToken: () => undefined,
  update: refused,
  signIn: refused,
  signOut: refused,
};

/** Renders `pathname` for a signed-out visitor with the Fluent resource `translations`. */
export async function renderSnapshot(pathname: string, translations: string): Promise<Snapshot> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://snapshot.invalid')));
  if (context instanceof Response) throw new Error(`${pathname} answers a redirect`);
  const router = createStaticRouter(handler.dataRoutes, context);

  const clientState = createActor(clientStateMachine).start();
  await waitFor(clientState, (snapshot) => snapshot.matches('ready'));

  // Node has no DOM to parse markup in translations with (`<Localized elems>`); the frame and
  // the login screen use none, so a message is its text.
  const asText = (text: string) => [{ nodeName: '#text', textContent: text } as Node];
  const l10n = new ReactLocalization([bundleFrom(translations)], asText);
  const sheet = new ServerStyleSheet();
  try {
    const html = renderToString(
      <StyleSheetManager sheet={sheet.instance}>
        <ThemeRoot>
          <LocalizationProvider l10n={l10n}>
            <ClientStateActorProvider actor={clientState}>
              <SessionContext.Provider value={visitor}>
                <StaticRouterProvider router={router} context={context} hydrate={false} />
              </SessionContext.Provider>
            </ClientStateActorProvider>
          </LocalizationProvider>
        </ThemeRoot>
      </StyleSheetManager>,
    );
    return { html, css: plainCss(sheet.getStyleTags()) };
  } finally {
    sheet.seal();
    clientState.stop();
  }
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
