import { createHmac } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { serverNow } from './serverClock';

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
 * e2e/integrationLink.spec.ts links and reports as it, with its secret.
 */
export const E2E_FPOS = {
  clientId: 'e2e-funeral-home',
  secret: 'an-integration-secret-for-e2e',
};

/**
 * The link the integration sends its user to, as docs/integrations.md tells an integrator to
 * make it: its proof is an HMAC-SHA256 with its secret, expiring 10 minutes after the server's
 * clock (other specs may have moved it forward).
 */
export async function integrationLinkUrl(
  request: APIRequestContext,
  fposUserId: string,
): Promise<string> {
  const expires = Math.floor((await serverNow(request)) / 1000) + 600;
  const text = `shinobu-integration-link\n${E2E_FPOS.clientId}\n${fposUserId}\n${expires}`;
  const signature = createHmac('sha256', E2E_FPOS.secret).update(text).digest('hex');
  const query = new URLSearchParams({
    client_id: E2E_FPOS.clientId,
    fpos_user_id: fposUserId,
    expires: String(expires),
    signature,
  });
  return `/integration/link?${query}`;
}
