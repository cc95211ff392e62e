/**
 * What page script knows of the session layer `/api/auth/*` (docs/client-auth.md): shared by
 * the session services and the session statechart, which imports no services.
 */

export interface SessionUser {
  id: string;
  username: string;
  memorialPageId: string | null;
  iconUrl: string | null;
}

/**
 * What page script learns of the session: the user and the `/v1` access token. The refresh
 * token stays in the httpOnly cookie (`refreshSession` spends it on the server).
 */
export interface AuthSession {
  user: SessionUser;
  accessToken: string;
  /** ISO date-time when the session cookie expires. */
  expires: string;
}

/** The fields `POST /api/auth/session` may change. */
export interface SessionUpdate {
  accessToken?: string;
  username?: string;
  iconUrl?: string | null;
}
