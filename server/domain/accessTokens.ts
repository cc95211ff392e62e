import { createHash, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../lib/clock';

/** Access tokens are short-lived JWTs (at most 15 minutes, so that a leaked one is soon useless). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

const ISSUER = 'shinobu';
const AUDIENCE = 'shinobu-api';

export interface AccessTokenClaims {
  userId: string;
  /** The member's session epoch when the token was issued; ending their sessions raises it. */
  sessionEpoch: number;
  /** When the member last proved who they are (signed in); `auth_time` of OpenID Connect. */
  authTime: Date;
}

export function signingKey(authSecret: string, purpose: string): Uint8Array {
  // One configured secret, a separate key per purpose, so a token of one kind never verifies as another.
  return createHash('sha256').update(`${purpose}:${authSecret}`).digest();
}

const accessKeys = new Map<string, Promise<CryptoKey>>();

/**
 * The HMAC key of access tokens, imported once per secret: handed raw bytes, jose imports
 * the key through WebCrypto again on every sign and verify.
 */
function accessTokenKey(authSecret: string): Promise<CryptoKey> {
  let key = accessKeys.get(authSecret);
  if (!key) {
    key = webcrypto.subtle.importKey(
      'raw',
      signingKey(authSecret, 'access-token'),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    accessKeys.set(authSecret, key);
  }
  return key;
}

/**
 * `sessionEpoch` is the member's `users.session_epoch` as the token is issued (a token naming
 * an older one than the member's is refused, so a wrong one can only refuse, never admit).
 * `authTime` is the sign-in this token descends from (refreshes keep it), so sensitive
 * changes can ask for a recent one; a token minted without it counts as a sign-in now.
 */
export async function issueAccessToken(
  userId: string,
  authSecret: string,
  clock: Clock,
  authTime: Date = clock.now(),
  sessionEpoch = 0,
): Promise<string> {
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({ auth_time: Math.floor(authTime.getTime() / 1000), sep: sessionEpoch })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
    .sign(await accessTokenKey(authSecret));
}

/**
 * Answers the claims, or undefined for a token that is malformed, forged or expired. Whether
 * its session still stands is the caller's question (server/domain/accounts/sessionCheck.ts).
 */
export async function verifyAccessToken(
  token: string,
  authSecret: string,
  clock: Clock,
): Promise<AccessTokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, await accessTokenKey(authSecret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: clock.now(),
    });
    const { sub, auth_time: authTime, sep } = payload;
    if (!sub || typeof authTime !== 'number' || !Number.isInteger(sep)) return undefined;
    return { userId: sub, sessionEpoch: sep as number, authTime: new Date(authTime * 1000) };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
}
