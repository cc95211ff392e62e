import { createHmac } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { serverNow } from './serverClock';

/**
 * The client the e2e servers are registered as with the local OpenID Connect provider they
 * know as LINE (test/support/localOidcProvider.ts), which the specs that sign in with LINE
 * start on their worker's port (`workerServer().line`, e2e/support/fixtures.ts).
 */
export const E2E_LINE_CLIENT = {
  clientId: 'shinobu-e2e-line',
  clientSecret: 'a-client-secret-for-the-e2e-provider',
};

/**
 * The external integration (FPOS) the e2e servers know (`FPOS_CLIENTS`, e2e/support/fixtures.ts):
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
