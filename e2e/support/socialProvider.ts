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
