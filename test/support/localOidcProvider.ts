/**
 * A real OpenID Connect provider (oidc-provider) on a local port, for social-login tests
 * (API and e2e). Its login and consent step has no page: it is finished at once for the
 * account the test chose with `signInNext`, as a person would after typing their password.
 */
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface ProviderAccount {
  sub: string;
  email: string;
  name: string;
}

export interface LocalOidcProviderOptions {
  port: number;
  clientId: string;
  clientSecret: string;
  /** The app's callback URLs (`PUBLIC_URL/api/auth/callback/<id>`). */
  redirectUris: string[];
}

export interface LocalOidcProvider {
  issuer: string;
  /** Who the provider's login step signs in from now on. */
  signInNext(account: ProviderAccount): void;
  close(): Promise<void>;
}

export const localIssuer = (port: number) => `http://127.0.0.1:${port}`;

/**
 * One signing key for every provider this process starts: a server that fetched the keys of
 * an earlier provider on the same port keeps them (by `kid`), and must still trust the next.
 */
let signingKey: ReturnType<typeof generateKeyPair> | undefined;

export async function startLocalOidcProvider(
  options: LocalOidcProviderOptions,
): Promise<LocalOidcProvider> {
  const issuer = localIssuer(options.port);
  const accounts = new Map<string, ProviderAccount>();
  let next: ProviderAccount | undefined;
  signingKey ??= generateKeyPair('RS256', { extractable: true });
  const { privateKey } = await signingKey;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: {
      keys: [{ ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }],
    },
    cookies: { keys: ['local-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email'], profile: ['name'] },
    conformIdTokenClaims: false,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ ...accounts.get(sub)!, sub }),
    }),
  });
  const callback = provider.callback();
  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    void (async () => {
      try {
        if (!next) throw new Error('the test chose no account (signInNext)');
        const account = next;
        const details = await provider.interactionDetails(req, res);
        accounts.set(account.sub, account);
        const grant = new provider.Grant({
          accountId: account.sub,
          clientId: String(details.params.client_id),
        });
        grant.addOIDCScope('openid profile email');
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, {
          login: { accountId: account.sub },
          consent: { grantId },
        });
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  return {
    issuer,
    signInNext: (account) => void (next = account),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
