import { readFile } from 'node:fs/promises';

export interface CertificateRef {
  userId: string;
  fingerprint: string;
  serialNumber: string;
}

/**
 * Decides which of a batch of ACTIVE certificates the issuing CA has revoked. The periodic
 * check hands it every active certificate in batches; an OCSP or CRL-over-HTTP checker is a
 * drop-in replacement of this interface.
 */
export interface RevocationChecker {
  /** False when it can never revoke anything: the sweep then skips paging through certificates. */
  active: boolean;
  revoked(certificates: CertificateRef[]): Promise<Set<string>>;
}

/**
 * The default: IDENTITY_REVOCATION_LIST_FILE, one SHA-256 fingerprint (any case, colons
 * optional) or serial number (hex) per line, `#` comments; re-read on every check so that
 * an operator can append to it without a restart. No file: nothing is revoked.
 */
export function fileRevocationChecker(file: string | undefined): RevocationChecker {
  return {
    active: file !== undefined,
    async revoked(certificates) {
      if (!file) return new Set();
      const listed = new Set(
        (await readFile(file, 'utf8'))
          .split('\n')
          .map((line) => line.replace(/#.*/, '').trim())
          .filter(Boolean)
          .map(normalizeHex),
      );
      return new Set(
        certificates
          .filter(
            (certificate) =>
              listed.has(normalizeHex(certificate.fingerprint)) ||
              listed.has(normalizeHex(certificate.serialNumber)),
          )
          .map((certificate) => certificate.fingerprint),
      );
    },
  };
}

function normalizeHex(value: string): string {
  return value.replace(/:/g, '').toUpperCase();
}
