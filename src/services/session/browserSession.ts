import type { SessionUser } from '../../../contract/sessionLayer';
import { onFirstUse } from '../../lib/onFirstUse';
import { authSessionWith } from './liveSession';
import { browserSessionApi, signOutOwed } from './owedSignOut';
import { firstFromPage, takePageSession } from './pageSession';
import { announceSessionChange, watchSessionChanges } from './tabSync';

type UserSync = (user: SessionUser | null) => void;

let syncUserSlices: UserSync = () => undefined;

/** The SessionProvider connects the client-state slices; the returned function disconnects. */
export function connectUserSync(sync: UserSync): () => void {
  syncUserSlices = sync;
  return () => {
    if (syncUserSlices === sync) syncUserSlices = () => undefined;
  };
}

/**
 * The app's session machine: this origin's session layer, the app's HTTP client, the tabs.
 * Made when the session provider first renders, not when the app's code is evaluated: each
 * `provide` builds the whole statechart again, work that lengthened start-up's longest task.
 */
export const browserAuthSessionMachine = onFirstUse(() =>
  authSessionWith({
    // The first read takes the session the server wrote into a member's page, if any; not
    // while a sign-out is owed: that page was written for the cookie the sign-out must clear.
    session: {
      ...browserSessionApi,
      fetchSession: firstFromPage(browserSessionApi.fetchSession, () => {
        const fromPage = takePageSession();
        return signOutOwed() ? undefined : fromPage;
      }),
    },
    watchTabs: watchSessionChanges,
    announceChange: announceSessionChange,
    syncUser: (user) => syncUserSlices(user),
  }),
);
