import { SessionError, sessionApi, type SessionApi } from '../api/session';

/**
 * A sign-out the server has not taken yet (docs/client-auth.md, "An owed sign-out"): the tab
 * signs out at once, but only the server can clear the httpOnly session cookie, and until it
 * has, a reload would read the session back. Kept in localStorage, shared by the tabs, from
 * the start of a sign-out until the server takes it or a new sign-in replaces the cookie.
 * It holds no more than when it was owed: nothing of the member.
 */
const KEY = 'shinobu:owedSignOut';

/** This origin's storage, looked up when used: the module is also evaluated outside a browser. */
const browserStorage = () => localStorage;

export const signOutOwed = (storage: () => Storage = browserStorage): boolean =>
  storage().getItem(KEY) !== null;

/**
 * The session layer with the owed sign-out kept: `signOut` owes it until the server answers;
 * while it is owed, every read of the session first sends the sign-out again and answers no
 * session unless the server took it; a password or activation sign-in clears it; a provider
 * sign-in pays it before leaving (the page the provider sends back carries a session this
 * client cannot tell from the old one).
 */
export function owingSignOut(api: SessionApi, storage: () => Storage = browserStorage): SessionApi {
  const settle = () => storage().removeItem(KEY);
  /** Sends the owed sign-out again; true once the server has taken it. */
  const pay = async (): Promise<boolean> => {
    try {
      await api.signOut('/login');
      settle();
      return true;
    } catch (error) {
      void api.logClientError('SIGNOUT_ERROR', error);
      return false;
    }
  };
  return {
    ...api,
    signOut: async (callbackUrl) => {
      storage().setItem(KEY, String(Date.now()));
      await api.signOut(callbackUrl);
      settle();
    },
    fetchSession: async () => {
      // Not paid: the cookie may still open the old session, which must not come back.
      if (signOutOwed(storage) && !(await pay())) return null;
      return api.fetchSession();
    },
    signInWithCredentials: async (credentials, callbackUrl) => {
      const result = await api.signInWithCredentials(credentials, callbackUrl);
      if (result.ok) settle();
      return result;
    },
    signInWithActivation: async (link, callbackUrl) => {
      await api.signInWithActivation(link, callbackUrl);
      settle();
    },
    signInWithProvider: async (provider, callbackUrl) => {
      if (signOutOwed(storage) && !(await pay())) throw new SessionError(503, 'SIGNOUT_ERROR');
      return api.signInWithProvider(provider, callbackUrl);
    },
  };
}

/** The app's session layer, the owed sign-out kept in this origin's localStorage. */
export const browserSessionApi = owingSignOut(sessionApi);
