import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors';

/** The longest life an integration may give its link proof. */
export const LINK_PROOF_MAX_SECONDS = 10 * 60;
/** How far the integration's clock may run ahead of ours. */
const CLOCK_SKEW_SECONDS = 60;

/** The link an integration asks for: its client id, its own user id and the proof's expiry. */
export interface LinkRequest {
  clientId: string;
  fposUserId: string;
  /** Unix time in seconds after which the proof is refused. */
  expires: number;
}

/**
 * The exact text an integration signs (docs/integrations.md): a fixed label, then the client
 * id, the integration's user id and the expiry, one per line. The client id has no line break
 * and the expiry is digits, so no two requests share a text.
 */
export const linkProofText = (link: LinkRequest) =>
  `shinobu-integration-link\n${link.clientId}\n${link.fposUserId}\n${link.expires}`;

/** HMAC-SHA256 of the text with the client's secret, in lowercase hex. */
export const linkProofOf = (link: LinkRequest, secret: string) =>
  createHmac('sha256', secret).update(linkProofText(link)).digest('hex');

const refused = (code: string, detail: string) => new DomainError('forbidden', code, detail);

/**
 * Refuses a link proof that the client's secret did not make for exactly this link, or whose
 * expiry is past or further ahead than an integration may set it. Compared in constant time.
 */
export function checkLinkProof(
  link: LinkRequest,
  signature: string,
  secret: string,
  now: Date,
): void {
  const expected = Buffer.from(linkProofOf(link, secret), 'hex');
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw refused(
      'integration_proof_invalid',
      'the signature is not the HMAC of this client, user and expiry with the client secret',
    );
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (link.expires <= nowSeconds) {
    throw refused('integration_proof_expired', 'the link proof has expired; start the link again');
  }
  if (link.expires > nowSeconds + LINK_PROOF_MAX_SECONDS + CLOCK_SKEW_SECONDS) {
    throw refused(
      'integration_proof_invalid',
      `the link proof may expire at most ${LINK_PROOF_MAX_SECONDS} seconds ahead`,
    );
  }
}
