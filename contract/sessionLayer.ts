/**
 * What page script knows of the session layer `/api/auth/*` (docs/client-auth.md): shared by
 * the session services and the session statechart, which imports no services. The wire's
 * shapes are the session endpoints' own (./auth); these are read from them.
 */
import type { z } from 'zod';
import type { SessionAnswer, SessionUpdateBody, sessionUser } from './auth';

export type SessionUser = z.infer<typeof sessionUser>;

/** The session as `GET /api/auth/session` answers it, the access token inside `user`. */
export type WireSession = SessionAnswer;

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

/** The fields page script may change with `POST /api/auth/session` (never the refresh token). */
export type SessionUpdate = Omit<NonNullable<SessionUpdateBody['data']>, 'refreshToken'>;
