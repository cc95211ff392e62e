/**
 * The app's session around real screens for a UI replay: the app's providers, the real
 * SessionProvider (the authSession machine with its token refresh, the session layer's
 * calls, the HTTP client connected to it) and a router, with every request held by the
 * replay's server until the path's next event answers it.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { AuthSession } from '../../../contract/sessionLayer';
import { SessionProvider } from '../../../src/services/session/SessionProvider';
import { AppProviders } from '../shellProviders';
import { holdServer, request, type HeldServer } from './heldServer';

export interface SessionWorld {
  server: HeldServer;
  router: ReturnType<typeof createMemoryRouter>;
  user: ReturnType<typeof userEvent.setup>;
}

/** The session layer's answer for a session (`GET/POST /api/auth/session`, the refresh). */
export const wireSession = (session: AuthSession | null) =>
  session
    ? { user: { ...session.user, accessToken: session.accessToken }, expires: session.expires }
    : {};

export const SESSION_READ = request('GET', '/api/auth/session');
export const SESSION_WRITE = request('POST', '/api/auth/session');
export const REFRESH_CALL = request('POST', '/api/auth/refresh');
export const SIGN_OUT_CALL = request('POST', '/api/auth/signout');

export const placeholder = (name: string) =>
  function Placeholder() {
    return (
      <main>
        <h1>{name}</h1>
      </main>
    );
  };

/** Renders `routes` under the session at `at`; the session's first read waits for an answer. */
export function renderWithSession(routes: RouteObject[], at: string): SessionWorld {
  const server = holdServer();
  // Not flow events: the double-submit token, and the client's error reports.
  server.always(request('GET', '/api/auth/csrf'), { status: 200, body: { csrfToken: 'csrf-1' } });
  server.always(request('POST', '/api/auth/_log'), { status: 200, body: {} });
  const router = createMemoryRouter(routes, { initialEntries: [at] });
  render(
    <AppProviders>
      <SessionProvider navigate={(to) => void router.navigate(to)}>
        <RouterProvider router={router} />
      </SessionProvider>
    </AppProviders>,
  );
  return { server, router, user: userEvent.setup() };
}
