import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from './clock';

/** Access tokens are short-lived JWTs (design.md §5: at most 15 minutes). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

const ISSUER = 'shinobu';
const AUDIENCE = 'shinobu-api';

export interface AccessTokenClaims {
  userId: string;
  /** When the member last proved who they are (signed in); `auth_time` of OpenID Connect. */
  authTime: Date;
}

export function signingKey(authSecret: string, purpose: string): Uint8Array {
  // One configured secret, a separate key per purpose, so a token of one kind never verifies as another.
  return createHash('sha256').update(`${purpose}:${authSecret}`).digest();
}

/**
 * `authTime` is the sign-in this token descends from (refreshes keep it), so sensitive
 * changes can ask for a recent one; a token minted without it counts as a sign-in now.
 */
export async function issueAccessToken(
  userId: string,
  authSecret: string,
  clock: Clock,
  authTime: Date = clock.now(),
): Promise<string> {
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({ auth_time: Math.floor(authTime.getTime() / 1000) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
    .sign(signingKey(authSecret, 'access-token'));
}

/** Answers the claims, or undefined for a token that is malformed, forged or expired. */
export async function verifyAccessToken(
  token: string,
  authSecret: string,
  clock: Clock,
): Promise<AccessTokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, signingKey(authSecret, 'access-token'), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: clock.now(),
    });
    if (!payload.sub || typeof payload.auth_time !== 'number') return undefined;
    return { userId: payload.sub, authTime: new Date(payload.auth_time * 1000) };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
}
