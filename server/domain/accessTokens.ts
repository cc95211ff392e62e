import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from './clock';

/** Access tokens are short-lived JWTs (design.md §5: at most 15 minutes). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

const ISSUER = 'shinobu';
const AUDIENCE = 'shinobu-api';

export interface AccessTokenClaims {
  userId: string;
}

export function signingKey(authSecret: string, purpose: string): Uint8Array {
  // One configured secret, a separate key per purpose, so a token of one kind never verifies as another.
  return createHash('sha256').update(`${purpose}:${authSecret}`).digest();
}

export async function issueAccessToken(
  userId: string,
  authSecret: string,
  clock: Clock,
): Promise<string> {
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({})
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
    return payload.sub ? { userId: payload.sub } : undefined;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
}
