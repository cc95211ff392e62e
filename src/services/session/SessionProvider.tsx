import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  fetchSession,
  signInWithCredentials,
  signOutOfSession,
  updateSession,
  type AuthSession,
} from '../api/session';
import { SessionContext, type SessionStatus, type SessionValue } from './SessionContext';

/** Reads the session from `/api/auth/session` at start and offers the session actions. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<AuthSession | null | undefined>(undefined);
  const current = useRef<AuthSession | null | undefined>(undefined);
  useEffect(() => {
    current.current = session;
  }, [session]);

  const refetch = useCallback(
    () =>
      fetchSession()
        .catch((error: unknown) => {
          console.error('CLIENT_FETCH_ERROR', error);
          return null;
        })
        .then(setSession),
    [],
  );

  useEffect(() => {
    let cancelled = false;
    void fetchSession()
      .catch(() => null)
      .then((loaded) => {
        if (!cancelled) setSession(loaded);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const value = useMemo<SessionValue>(() => {
    const status: SessionStatus =
      session === undefined ? 'loading' : session ? 'authenticated' : 'unauthenticated';
    return {
      status,
      user: session?.user ?? null,
      accessToken: () => current.current?.accessToken,
      update: async (data) => setSession(await updateSession(data)),
      signIn: async (credentials) => {
        const result = await signInWithCredentials(credentials, window.location.pathname);
        if (result.ok) await refetch();
        return result;
      },
      signOut: async () => {
        await signOutOfSession('/login');
        setSession(null);
      },
    };
  }, [session, refetch]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
