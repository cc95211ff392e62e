import { createContext } from 'react';
import type { SessionUpdate, SessionUser } from '../../../contract/sessionLayer';
import type { SignInCredentials, SignInResult } from '../api/session';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface SessionValue {
  status: SessionStatus;
  user: SessionUser | null;
  /** The current access token (changes when it is refreshed), or undefined when signed out. */
  accessToken: () => string | undefined;
  /** Posts new session data (tokens, username, icon) and resolves once it is stored. */
  update: (data: SessionUpdate) => Promise<void>;
  /** Signs in with email and password; resolves with the protocol's result. */
  signIn: (credentials: SignInCredentials) => Promise<SignInResult>;
  /** Activates the account of the registration mail's link and signs its member in. */
  activate: (link: {
    token: string;
    email: string;
    password?: string;
    assertion?: string;
  }) => Promise<void>;
  /** Signs out: clears the user, the token and the refresh token. */
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionValue | undefined>(undefined);
