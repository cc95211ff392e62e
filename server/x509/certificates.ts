import { X509Certificate, verify } from 'node:crypto';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate in a PEM bundle; throws on a block that is not a certificate. */
export function parsePemBundle(pem: string): X509Certificate[] {
  return (pem.match(PEM_BLOCK) ?? []).map((block) => new X509Certificate(block));
}

/** The CA certificates of IDENTITY_TRUST_ANCHORS (non-CA certificates are not anchors). */
export function parseTrustAnchors(pem: string): X509Certificate[] {
  return parsePemBundle(pem).filter((certificate) => certificate.ca);
}

export type CertificateProblem =
  'certificate_invalid' | 'certificate_not_trusted' | 'certificate_not_valid_now';

export interface CheckedCertificate {
  certificate: X509Certificate;
  /** SHA-256 fingerprint, colon-separated upper-case hex as node:crypto gives it. */
  fingerprint: string;
  notAfter: Date;
  emails: string[];
}

function validAt(certificate: X509Certificate, now: Date): boolean {
  return new Date(certificate.validFrom) <= now && now <= new Date(certificate.validTo);
}

function issuedBy(certificate: X509Certificate, issuer: X509Certificate): boolean {
  return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
}

/** The rfc822Name entries of subjectAltName. */
function emailsOf(certificate: X509Certificate): string[] {
  return (certificate.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('email:'))
    .map((entry) => entry.slice('email:'.length).toLowerCase());
}

/**
 * Parses the leaf (and the chain the app sent) and finds a path of at most four
 * intermediates to one of the trust anchors, every certificate on it valid at `now`.
 */
export function checkCertificate(
  certificatePem: string,
  chainPem: string | undefined,
  anchors: X509Certificate[],
  now: Date,
): CheckedCertificate | CertificateProblem {
  let leaf: X509Certificate;
  let chain: X509Certificate[];
  try {
    const [first, ...more] = parsePemBundle(certificatePem);
    if (!first || more.length > 0) return 'certificate_invalid';
    leaf = first;
    chain = chainPem ? parsePemBundle(chainPem) : [];
  } catch {
    return 'certificate_invalid';
  }
  if (!validAt(leaf, now)) return 'certificate_not_valid_now';
  let current = leaf;
  for (let depth = 0; depth <= 4; depth += 1) {
    if (anchors.some((anchor) => validAt(anchor, now) && issuedBy(current, anchor))) {
      return {
        certificate: leaf,
        fingerprint: leaf.fingerprint256,
        notAfter: new Date(leaf.validTo),
        emails: emailsOf(leaf),
      };
    }
    const next = chain.find(
      (candidate) => candidate.ca && validAt(candidate, now) && issuedBy(current, candidate),
    );
    if (!next) break;
    current = next;
  }
  return 'certificate_not_trusted';
}

/**
 * True when `signatureBase64` is the certificate key's signature over the UTF-8 bytes of
 * `content`: ECDSA or RSA with SHA-256, or Ed25519/Ed448 (which take no separate digest).
 */
export function signatureMatches(
  certificatePem: string,
  content: string,
  signatureBase64: string,
): boolean {
  try {
    const key = new X509Certificate(certificatePem).publicKey;
    const pure = key.asymmetricKeyType === 'ed25519' || key.asymmetricKeyType === 'ed448';
    return verify(
      pure ? null : 'sha256',
      Buffer.from(content, 'utf8'),
      key,
      Buffer.from(signatureBase64, 'base64'),
    );
  } catch {
    return false;
  }
}
