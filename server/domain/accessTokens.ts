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

interface VerifiedClaims extends AccessTokenClaims {
  /** The token's `exp` in epoch seconds; undefined when it must not be remembered. */
  expiresAt: number | undefined;
}

const verifyOptions = (clock: Clock) => ({
  issuer: ISSUER,
  audience: AUDIENCE,
  algorithms: ['HS256'],
  currentDate: clock.now(),
});

async function verifiedClaims(
  token: string,
  key: Uint8Array | CryptoKey,
  clock: Clock,
): Promise<VerifiedClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, key, verifyOptions(clock));
    if (!payload.sub || typeof payload.auth_time !== 'number') return undefined;
    // Only a token whose validity ends at `exp` and nowhere else may be answered from memory.
    const rememberable = payload.exp !== undefined && payload.nbf === undefined;
    return {
      userId: payload.sub,
      authTime: new Date(payload.auth_time * 1000),
      expiresAt: rememberable ? payload.exp : undefined,
    };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
}

/** Answers the claims, or undefined for a token that is malformed, forged or expired. */
export async function verifyAccessToken(
  token: string,
  authSecret: string,
  clock: Clock,
): Promise<AccessTokenClaims | undefined> {
  const claims = await verifiedClaims(token, signingKey(authSecret, 'access-token'), clock);
  return claims && { userId: claims.userId, authTime: claims.authTime };
}

/** How many verified tokens one instance remembers; past that the oldest are forgotten. */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

export type AccessTokenVerifier = (token: string) => Promise<AccessTokenClaims | undefined>;

/**
 * verifyAccessToken for every authenticated request, without verifying the same token again.
 * A token is a signed, self-contained statement that holds until its `exp`: once its
 * signature and claims checked out, the same string is answered from memory until that
 * second, exactly as a fresh verification would answer (the clock is read on every call).
 * Nothing here outlives what the token itself says, so instances need no coordination.
 * Only genuine tokens are remembered (forgeries cannot fill the cache), at most
 * VERIFIED_TOKEN_CACHE_SIZE of them, oldest out first. The key is imported once: importing
 * it and the signature check were most of a cheap request's time (docs/benchmarks.md).
 */
export function createAccessTokenVerifier(authSecret: string, clock: Clock): AccessTokenVerifier {
  const key = crypto.subtle.importKey(
    'raw',
    new Uint8Array(signingKey(authSecret, 'access-token')),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const verified = new Map<string, { userId: string; authTime: Date; expiresAt: number }>();
  return async (token) => {
    const remembered = verified.get(token);
    if (remembered) {
      // jose's own rule: a token is expired from the second named by `exp` on.
      if (Math.floor(clock.now().getTime() / 1000) < remembered.expiresAt) {
        return { userId: remembered.userId, authTime: remembered.authTime };
      }
      verified.delete(token);
      return undefined;
    }
    const claims = await verifiedClaims(token, await key, clock);
    if (!claims) return undefined;
    if (claims.expiresAt !== undefined) {
      verified.set(token, {
        userId: claims.userId,
        authTime: claims.authTime,
        expiresAt: claims.expiresAt,
      });
      if (verified.size > VERIFIED_TOKEN_CACHE_SIZE) verified.delete(verified.keys().next().value!);
    }
    return { userId: claims.userId, authTime: claims.authTime };
  };
}
