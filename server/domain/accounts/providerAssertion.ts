import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { signingKey } from '../accessTokens';
import type { Clock } from '../clock';

/** A provider identity the server itself verified (an OAuth/OIDC callback it completed). */
export interface ProviderIdentity {
  provider: string;
  providerUserId: string;
}

/** Long enough to fill in the registration form that follows a first social sign-in. */
export const PROVIDER_ASSERTION_TTL_SECONDS = 60 * 60;
const PURPOSE = 'provider-assertion';

/**
 * Signs what the server learnt from a provider, so that the external-provider registration
 * and login calls accept only identities verified here, never a bare email or id.
 */
export async function issueProviderAssertion(
  identity: ProviderIdentity,
  authSecret: string,
  clock: Clock,
): Promise<string> {
  const issuedAt = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({ provider: identity.provider })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(identity.providerUserId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + PROVIDER_ASSERTION_TTL_SECONDS)
    .sign(signingKey(authSecret, PURPOSE));
}

export async function verifyProviderAssertion(
  assertion: string,
  authSecret: string,
  clock: Clock,
): Promise<ProviderIdentity | undefined> {
  try {
    const { payload } = await jwtVerify(assertion, signingKey(authSecret, PURPOSE), {
      algorithms: ['HS256'],
      currentDate: clock.now(),
    });
    if (typeof payload.provider !== 'string' || !payload.sub) return undefined;
    return { provider: payload.provider, providerUserId: payload.sub };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
}
