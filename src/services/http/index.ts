import { createHttpClients, type HttpSession } from './client';

export {
  callPath,
  isQuietHttpError,
  type HttpClients,
  type HttpSession,
  type RefreshOutcome,
} from './client';

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

/** The product API `/v1` (same origin): `http` for every call, `tokens` for the refresh. */
export const httpClients = createHttpClients({
  session: {
    accessToken: () => connected.accessToken(),
    refresh: () => connected.refresh(),
    authorisationFailed: (path) => connected.authorisationFailed(path),
  },
});

/** The one axios instance of the product API. */
export const http = httpClients.http;
