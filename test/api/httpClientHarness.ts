import { vi } from 'vitest';
import { createActor } from 'xstate';
import { authApi } from '../../src/services/api/auth';
import { createSessionApi } from '../../src/services/api/session';
import { createHttpClients, type HttpSession } from '../../src/services/http/httpClients';
import { authSessionWith, httpSessionOf } from '../../src/services/session/liveSession';

/**
 * A fetch that keeps cookies like a browser tab of one origin does (the session cookie and
 * the csrf cookie of the session layer): Node's fetch keeps none.
 */
export function cookieKeepingFetch(): typeof fetch {
  const cookies = new Map<string, string>();
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (cookies.size > 0) {
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    }
    const response = await fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const split = pair.indexOf('=');
      const name = pair.slice(0, split);
      const value = pair.slice(split + 1);
      const expired = attributes.some(
        (attribute) =>
          /^max-age=0$/i.test(attribute) ||
          (/^expires=/i.test(attribute) && Date.parse(attribute.slice(8)) < Date.now()),
      );
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
}

/**
 * The app's client side in Node, as the browser wires it: the session layer with a cookie
 * jar, the HTTP clients, the real authSession machine connected to them. Only the tab
 * events (none in Node) and the slice sync (no React here) are left out.
 */
export function startClient(origin: string) {
  const session = createSessionApi({ origin, fetchImpl: cookieKeepingFetch() });
  const bridge: { session?: HttpSession } = {};
  const clients = createHttpClients({
    baseURL: origin,
    session: {
      accessToken: () => bridge.session!.accessToken(),
      refresh: () => bridge.session!.refresh(),
      authorisationFailed: (path) => bridge.session!.authorisationFailed(path),
    },
  });
  const api = authApi(clients);
  const goToLogin = vi.fn();
  const actor = createActor(
    authSessionWith({
      session,
      watchTabs: () => () => undefined,
      announceChange: () => undefined,
      syncUser: () => undefined,
    }),
    { input: {} },
  );
  bridge.session = httpSessionOf(actor, goToLogin);
  return { ...clients, api, session, actor, goToLogin };
}

export type TestClient = ReturnType<typeof startClient>;

/** Resolves when the client's session is in a state matching `state`. */
export function sessionIn(client: TestClient, state: string | object): Promise<void> {
  return new Promise((resolve) => {
    const check = () => client.actor.getSnapshot().matches(state as never);
    if (check()) return resolve();
    const subscription = client.actor.subscribe(() => {
      if (!check()) return;
      subscription.unsubscribe();
      resolve();
    });
  });
}
