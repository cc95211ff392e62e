import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Db } from '../../db/database';
import { signingKey } from '../accessTokens';
import type { Clock } from '../../lib/clock';
import { spendProof, unspendProof } from '../spentProofs';

/** A provider identity the server itself verified (an OAuth/OIDC callback it completed). */
export interface ProviderIdentity {
  provider: string;
  providerUserId: string;
}

/** Long enough to fill in the registration form that follows a first social sign-in. */
export const PROVIDER_ASSERTION_TTL_SECONDS = 60 * 60;
const PURPOSE = 'provider-assertion';

/** What a browser keeps in its binding cookie: only its digest goes into the assertion. */
export const newAssertionBinding = () => randomBytes(32).toString('base64url');
const digestOf = (binding: string) => createHash('sha256').update(binding).digest();

export interface IssuedAssertion {
  assertion: string;
  /** The value of the httpOnly cookie the assertion is bound to. */
  binding: string;
  expires: Date;
}

/**
 * Signs what the server learnt from a provider, so that the external-provider registration
 * and login calls accept only identities verified here, never a bare email or id. The
 * assertion is bound to the browser that came back from the provider: it names the digest of
 * a random value that only that browser's cookie holds.
 */
export async function issueProviderAssertion(
  identity: ProviderIdentity,
  authSecret: string,
  clock: Clock,
): Promise<IssuedAssertion> {
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  const expiresAt = issuedAt + PROVIDER_ASSERTION_TTL_SECONDS;
  const binding = newAssertionBinding();
  const assertion = await new SignJWT({
    provider: identity.provider,
    bnd: digestOf(binding).toString('base64url'),
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(identity.providerUserId)
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(signingKey(authSecret, PURPOSE));
  return { assertion, binding, expires: new Date(expiresAt * 1000) };
}

export interface VerifiedAssertion extends ProviderIdentity {
  /** Spends the assertion; false when it was spent already. */
  spend(db: Db): Promise<boolean>;
  /** Gives it back when what it was spent on was refused after all. */
  giveBack(db: Db): Promise<void>;
}

/**
 * The identity of an assertion this server signed, still valid and presented with the cookie
 * of the browser it was issued to; undefined otherwise. It is not spent yet.
 */
export async function verifyProviderAssertion(
  assertion: string,
  binding: string | undefined,
  authSecret: string,
  clock: Clock,
): Promise<VerifiedAssertion | undefined> {
  let payload;
  try {
    ({ payload } = await jwtVerify(assertion, signingKey(authSecret, PURPOSE), {
      algorithms: ['HS256'],
      currentDate: clock.now(),
    }));
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
  const { provider, sub, jti, exp, bnd } = payload;
  if (typeof provider !== 'string' || !sub || !jti || !exp || typeof bnd !== 'string') {
    return undefined;
  }
  const bound = Buffer.from(bnd, 'base64url');
  const presented = binding ? digestOf(binding) : Buffer.alloc(0);
  if (bound.length !== presented.length || !timingSafeEqual(bound, presented)) return undefined;
  return {
    provider,
    providerUserId: sub,
    spend: (db) =>
      spendProof(db, 'provider-assertion', jti, {
        now: clock.now(),
        expiresAt: new Date(exp * 1000),
      }),
    giveBack: (db) => unspendProof(db, 'provider-assertion', jti),
  };
}
