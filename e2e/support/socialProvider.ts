/**
 * The local OpenID Connect provider the e2e server knows as LINE (playwright.config.ts);
 * e2e/socialLogin.spec.ts starts it (test/support/localOidcProvider.ts). Its port is
 * `E2E_OIDC_PORT`, else 4341, so that runs side by side can each have their own.
 */
const port = Number(process.env.E2E_OIDC_PORT ?? 4341);

export const E2E_LINE = {
  port,
  issuer: `http://127.0.0.1:${port}`,
  clientId: 'shinobu-e2e-line',
  clientSecret: 'a-client-secret-for-the-e2e-provider',
};

/**
 * The external integration (FPOS) the e2e server knows (playwright.config.ts `FPOS_CLIENTS`):
 * e2e/integrationLink.spec.ts reports as it, with its secret.
 */
export const E2E_FPOS = {
  clientId: 'e2e-funeral-home',
  secret: 'an-integration-secret-for-e2e',
};
