import type { HttpSession } from './client';

/**
 * The link between the HTTP client and the live session, apart from the client itself: the
 * SessionProvider connects at start without loading axios, which comes with the first call
 * (docs/benchmarks.md, entry route JS).
 */

/** Before a session is connected: no token, nothing to refresh, nowhere to send the user. */
const signedOut: HttpSession = {
  accessToken: async () => undefined,
  refresh: async () => ({ ok: false, loggedOut: true }),
  authorisationFailed: () => undefined,
};

let connected: HttpSession = signedOut;

/** The SessionProvider connects the live session; the returned function disconnects it. */
export function connectHttpSession(session: HttpSession): () => void {
  connected = session;
  return () => {
    if (connected === session) connected = signedOut;
  };
}

/** Whatever session is connected when a call asks. */
export const connectedSession: HttpSession = {
  accessToken: () => connected.accessToken(),
  refresh: () => connected.refresh(),
  authorisationFailed: (path) => connected.authorisationFailed(path),
};
