import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { OAuthProviderConfig, OAuthProviderId } from '../../config';
import type { ProviderIdentity } from './providerAssertion';

/** The provider's endpoints: from OpenID Connect discovery, or fixed for plain OAuth 2.0. */
interface Endpoints {
  issuer: string | undefined;
  authorization: string;
  token: string;
  userinfo: string | undefined;
  jwks: string | undefined;
}

interface ProviderTraits {
  name: string;
  scope: string;
  /** How the client secret reaches the token endpoint. */
  tokenAuth: 'basic' | 'post';
  /** An OpenID Connect issuer, discovered at run time. */
  issuer?: string;
  /** Fixed endpoints of a plain OAuth 2.0 provider. */
  endpoints?: Omit<Endpoints, 'issuer' | 'jwks'>;
}

const TRAITS: Record<OAuthProviderId, ProviderTraits> = {
  line: {
    name: 'LINE',
    scope: 'openid profile email',
    tokenAuth: 'post',
    issuer: 'https://access.line.me',
  },
  google: {
    name: 'Google',
    scope: 'openid profile email',
    tokenAuth: 'basic',
    issuer: 'https://accounts.google.com',
  },
  facebook: {
    name: 'Facebook',
    scope: 'public_profile email',
    tokenAuth: 'post',
    endpoints: {
      authorization: 'https://www.facebook.com/v19.0/dialog/oauth',
      token: 'https://graph.facebook.com/v19.0/oauth/access_token',
      userinfo: 'https://graph.facebook.com/me?fields=id,name,email',
    },
  },
  twitter: {
    name: 'X',
    scope: 'users.read tweet.read',
    tokenAuth: 'basic',
    endpoints: {
      authorization: 'https://twitter.com/i/oauth2/authorize',
      token: 'https://api.twitter.com/2/oauth2/token',
      userinfo: 'https://api.twitter.com/2/users/me',
    },
  },
};

export const providerName = (id: OAuthProviderId) => TRAITS[id].name;

/** What a provider told us about the person, to prefill the registration form. */
export interface ProviderProfile extends ProviderIdentity {
  email: string | undefined;
  name: string | undefined;
}

/** The secrets of one authorisation round trip, kept in an encrypted cookie meanwhile. */
export interface AuthorizationRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export class OAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OAuthError';
  }
}

const random = () => randomBytes(32).toString('base64url');

async function fetchJson(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new OAuthError(`${url}: HTTP ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** One OAuth 2.0 / OpenID Connect client per configured provider. */
export function oauthClient(config: OAuthProviderConfig, redirectUri: string) {
  const traits = TRAITS[config.id];
  const issuer = config.issuer ?? traits.issuer;
  let endpoints: Promise<Endpoints> | undefined;
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  const discover = (): Promise<Endpoints> => {
    if (!issuer) {
      const fixed = traits.endpoints!;
      return Promise.resolve({ ...fixed, issuer: undefined, jwks: undefined });
    }
    endpoints ??= fetchJson(`${issuer}/.well-known/openid-configuration`).then((document) => ({
      issuer: String(document.issuer),
      authorization: String(document.authorization_endpoint),
      token: String(document.token_endpoint),
      userinfo: document.userinfo_endpoint ? String(document.userinfo_endpoint) : undefined,
      jwks: document.jwks_uri ? String(document.jwks_uri) : undefined,
    }));
    // A failed discovery is tried again on the next sign-in.
    endpoints.catch(() => (endpoints = undefined));
    return endpoints;
  };

  async function verifyIdToken(
    idToken: string,
    found: Endpoints,
    nonce: string,
  ): Promise<JWTPayload> {
    const options = {
      issuer: found.issuer,
      audience: config.clientId,
      // The provider lives in real time: its tokens are checked against the real clock, not
      // the server's own (which tests and demos may shift with CLOCK_OFFSET_MS or the test
      // clock control).
      clockTolerance: 60,
    };
    // LINE signs web-login ID tokens with the channel secret (HS256); others publish keys.
    const { alg } = decodeProtectedHeader(idToken);
    let payload: JWTPayload;
    if (alg === 'HS256') {
      ({ payload } = await jwtVerify(
        idToken,
        new TextEncoder().encode(config.clientSecret),
        options,
      ));
    } else {
      if (!found.jwks) throw new OAuthError('provider publishes no keys');
      jwks ??= createRemoteJWKSet(new URL(found.jwks));
      ({ payload } = await jwtVerify(idToken, jwks, options));
    }
    if (payload.nonce !== nonce) throw new OAuthError('ID token nonce does not match');
    return payload;
  }

  return {
    id: config.id,
    name: traits.name,

    /** The provider's authorisation URL for a new round trip, and its secrets. */
    async authorize(): Promise<{ url: string; request: AuthorizationRequest }> {
      const found = await discover();
      const request = { state: random(), nonce: random(), codeVerifier: random() };
      const url = new URL(found.authorization);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: config.clientId,
        redirect_uri: redirectUri,
        scope: traits.scope,
        state: request.state,
        nonce: request.nonce,
        code_challenge: createHash('sha256').update(request.codeVerifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      return { url: url.toString(), request };
    },

    /** Exchanges the code and answers who the provider says signed in, verified here. */
    async complete(code: string, request: AuthorizationRequest): Promise<ProviderProfile> {
      const found = await discover();
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: request.codeVerifier,
      });
      const headers: Record<string, string> = {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      };
      if (traits.tokenAuth === 'basic') {
        const basic = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`;
        headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
      } else {
        form.set('client_id', config.clientId);
        form.set('client_secret', config.clientSecret);
      }
      const tokens = await fetchJson(found.token, { method: 'POST', headers, body: form });
      if (typeof tokens.id_token === 'string' && found.issuer) {
        const claims = await verifyIdToken(tokens.id_token, found, request.nonce);
        if (!claims.sub) throw new OAuthError('ID token names nobody');
        return {
          provider: config.id,
          providerUserId: claims.sub,
          email: typeof claims.email === 'string' ? claims.email : undefined,
          name: typeof claims.name === 'string' ? claims.name : undefined,
        };
      }
      if (typeof tokens.access_token !== 'string' || !found.userinfo) {
        throw new OAuthError('provider answered neither an ID token nor an access token');
      }
      const profile = await fetchJson(found.userinfo, {
        headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
      });
      // Facebook answers {id, name, email}; X answers {data: {id, name, username}}.
      const person = (profile.data as Record<string, unknown> | undefined) ?? profile;
      const id = person.sub ?? person.id;
      if (typeof id !== 'string' && typeof id !== 'number')
        throw new OAuthError('profile names nobody');
      return {
        provider: config.id,
        providerUserId: String(id),
        email: typeof person.email === 'string' ? person.email : undefined,
        name: typeof person.name === 'string' ? person.name : undefined,
      };
    },
  };
}

export type OAuthClient = ReturnType<typeof oauthClient>;
