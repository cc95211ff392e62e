import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { EncryptJWT, decodeJwt, jwtDecrypt, errors as joseErrors } from 'jose';
import { signingKey } from '../accessTokens';
import type { Clock } from '../../lib/clock';
import { REFRESH_TOKEN_TTL_MS, sessionEndOf } from './refreshTokens';

/** What the encrypted session cookie holds: the member and the tokens of the /v1 API. */
export interface SessionData {
  user: {
    id: string;
    username: string;
    memorialPageId: string | null;
    iconUrl: string | null;
  };
  accessToken: string;
  refreshToken: string | null;
}

export interface Session extends SessionData {
  /** When the cookie (and with it the session) expires. */
  expires: Date;
}

/** As long as the refresh token it carries; each update starts the period again. */
export const SESSION_TTL_MS = REFRESH_TOKEN_TTL_MS;

/**
 * Encrypts `claims` (dir + A256GCM) with a key of its own for `purpose`, derived from
 * AUTH_SECRET, valid for `ttlMs` or until `endsBy`, whichever comes first.
 */
export async function sealCookieValue(
  claims: Record<string, unknown>,
  purpose: string,
  ttlMs: number,
  authSecret: string,
  clock: Clock,
  endsBy?: Date,
): Promise<{ value: string; expires: Date }> {
  const now = clock.now();
  const slid = now.getTime() + ttlMs;
  const expires = new Date(endsBy ? Math.min(slid, endsBy.getTime()) : slid);
  const value = await new EncryptJWT(claims)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expires.getTime() / 1000))
    .encrypt(signingKey(authSecret, purpose));
  return { value, expires };
}

/** The claims of a sealed value, or undefined when it is absent, altered or expired. */
export async function openCookieValue(
  value: string | undefined,
  purpose: string,
  authSecret: string,
  clock: Clock,
): Promise<(Record<string, unknown> & { exp: number }) | undefined> {
  if (!value) return undefined;
  try {
    const { payload } = await jwtDecrypt(value, signingKey(authSecret, purpose), {
      currentDate: clock.now(),
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    return typeof payload.exp === 'number' ? { ...payload, exp: payload.exp } : undefined;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
}

/**
 * The sign-in a session descends from: its access token's `auth_time` (every token the
 * session holds was minted for that sign-in or refreshed from it), or undefined for a token
 * without one.
 */
export function signedInAtOf(data: SessionData): Date | undefined {
  try {
    const { auth_time: authTime } = decodeJwt(data.accessToken);
    return typeof authTime === 'number' ? new Date(authTime * 1000) : undefined;
  } catch {
    return undefined;
  }
}

/** Each write slides the session by SESSION_TTL_MS, never past 90 days after its sign-in. */
export function sealSession(data: SessionData, authSecret: string, clock: Clock) {
  const signedInAt = signedInAtOf(data) ?? clock.now();
  const endsBy = sessionEndOf(signedInAt, clock.now());
  return sealCookieValue(
    { session: data },
    'session-cookie',
    SESSION_TTL_MS,
    authSecret,
    clock,
    endsBy,
  );
}

export async function openSession(
  value: string | undefined,
  authSecret: string,
  clock: Clock,
): Promise<Session | undefined> {
  const claims = await openCookieValue(value, 'session-cookie', authSecret, clock);
  const data = claims?.session as SessionData | undefined;
  if (!claims || !data?.user?.id) return undefined;
  const signedInAt = signedInAtOf(data);
  // A session whose sign-in is unknown or past the absolute lifetime is over.
  if (!signedInAt || sessionEndOf(signedInAt, clock.now()) <= clock.now()) return undefined;
  return { ...data, expires: new Date(claims.exp * 1000) };
}

/**
 * CSRF double submit, as NextAuth does it: the cookie holds `token|hmac(token)`, so a cookie
 * planted by another site (without the secret) is refused, and every POST must repeat the
 * token in its body.
 */
function csrfHash(token: string, authSecret: string): string {
  return createHmac('sha256', signingKey(authSecret, 'csrf')).update(token).digest('base64url');
}

export function newCsrfCookie(authSecret: string): { token: string; cookie: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, cookie: `${token}|${csrfHash(token, authSecret)}` };
}

/** The token of a genuine csrf cookie, or undefined. */
export function csrfTokenOf(cookie: string | undefined, authSecret: string): string | undefined {
  const [token, hash] = cookie?.split('|') ?? [];
  if (!token || !hash) return undefined;
  const expected = Buffer.from(csrfHash(token, authSecret));
  const actual = Buffer.from(hash);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? token : undefined;
}

/** True when the body's token matches a genuine csrf cookie. */
export function csrfMatches(
  cookie: string | undefined,
  submitted: string | undefined,
  authSecret: string,
): boolean {
  const token = csrfTokenOf(cookie, authSecret);
  if (!token || !submitted) return false;
  const a = Buffer.from(token);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}
