import { useContext } from 'react';
import { SessionContext, type SessionValue } from './SessionContext';

export type { SessionStatus, SessionValue } from './SessionContext';

/**
 * The signed-in user and the session actions: status
 * `loading | authenticated | unauthenticated`, the user (or null), a getter of the current
 * access token, `update`, `signIn` and `signOut`. Needs `<SessionProvider>` above.
 */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
