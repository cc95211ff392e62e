import type { HttpSession } from './httpClients';

/**
 * The link between the HTTP client and the live session, apart from the client itself: the
 * SessionProvider connects at start without loading axios, which comes with the first call.
 */

/** Before a session is connected: no token, nothing to refresh, nowhere to send the user. */
const signedOut: HttpSession = {
  accessToken: async () => undefined,
  refresh: async () => ({ ok: false, loggedOut: true }),
  authorisationFailed: () => undefined,
};

let connected: HttpSession = signedOut;
let markConnected: () => void = () => undefined;
const firstConnection = new Promise<void>((resolve) => {
  markConnected = resolve;
});

/**
 * Resolves once the SessionProvider has connected the live session. A route loader runs
 * when the router starts, before the app's first render connects it; a call made then would
 * go out without the bearer and fail (the ending note's early read).
 */
export function whenSessionConnected(): Promise<void> {
  return firstConnection;
}

/** The SessionProvider connects the live session; the returned function disconnects it. */
export function connectHttpSession(session: HttpSession): () => void {
  connected = session;
  markConnected();
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
