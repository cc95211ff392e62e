import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Issues X.509 v3 certificates (ECDSA P-256, SHA-256) with a minimal DER writer, because
 * node:crypto reads certificates but cannot write them. Used for the development identity CA
 * (outside production), by tests and by the e2e app-bridge test host. Production certificates
 * come from the identity provider's CA and are only verified (certificates.ts).
 */

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const COMMON_NAME = '2.5.4.3';
const BASIC_CONSTRAINTS = '2.5.29.19';
const SUBJECT_ALT_NAME = '2.5.29.17';

function length(bytes: number): Buffer {
  if (bytes < 0x80) return Buffer.from([bytes]);
  const digits: number[] = [];
  for (let rest = bytes; rest > 0; rest >>= 8) digits.unshift(rest & 0xff);
  return Buffer.from([0x80 | digits.length, ...digits]);
}

function node(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...items: Buffer[]) => node(0x30, ...items);
const octetString = (content: Buffer) => node(0x04, content);
const bitString = (content: Buffer) => node(0x03, Buffer.from([0]), content);
const utf8 = (text: string) => node(0x0c, Buffer.from(text, 'utf8'));
const boolean = (value: boolean) => node(0x01, Buffer.from([value ? 0xff : 0]));

function positiveInteger(value: Buffer): Buffer {
  return node(0x02, value[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

function objectId(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number) as number[];
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const group: number[] = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) group.unshift((value & 0x7f) | 0x80);
    bytes.push(...group);
  }
  return node(0x06, Buffer.from(bytes));
}

/** UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
function time(at: Date): Buffer {
  const iso = at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return at.getUTCFullYear() < 2050
    ? node(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : node(0x18, Buffer.from(`${iso}Z`));
}

const name = (commonName: string) =>
  sequence(node(0x31, sequence(objectId(COMMON_NAME), utf8(commonName))));

export interface IssueCertificateInput {
  subjectName: string;
  subjectPublicKey: KeyObject;
  /** The signing authority; omitted for a self-signed certificate. */
  issuer?: { name: string; privateKey: KeyObject };
  /** Self-signed only: the subject's own private key. */
  selfPrivateKey?: KeyObject;
  notBefore: Date;
  notAfter: Date;
  isAuthority: boolean;
  /** subjectAltName rfc822Name: the member's mail address. */
  email?: string;
}

/** A PEM certificate signed by `issuer` (or self-signed with `selfPrivateKey`). */
export function issueCertificate(input: IssueCertificateInput): string {
  const signer = input.issuer?.privateKey ?? input.selfPrivateKey;
  if (!signer) throw new Error('issueCertificate: an issuer or the self private key is needed');
  const algorithm = sequence(objectId(ECDSA_WITH_SHA256));
  const extensions = [
    sequence(
      objectId(BASIC_CONSTRAINTS),
      boolean(true),
      octetString(input.isAuthority ? sequence(boolean(true)) : sequence()),
    ),
  ];
  if (input.email) {
    extensions.push(
      sequence(
        objectId(SUBJECT_ALT_NAME),
        octetString(sequence(node(0x81, Buffer.from(input.email, 'ascii')))),
      ),
    );
  }
  const tbs = sequence(
    node(0xa0, positiveInteger(Buffer.from([2]))),
    positiveInteger(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    algorithm,
    name(input.issuer?.name ?? input.subjectName),
    sequence(time(input.notBefore), time(input.notAfter)),
    name(input.subjectName),
    input.subjectPublicKey.export({ type: 'spki', format: 'der' }),
    node(0xa3, sequence(...extensions)),
  );
  const der = sequence(tbs, algorithm, bitString(sign('sha256', tbs, signer)));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

export interface CertificateAuthority {
  name: string;
  certificatePem: string;
  privateKey: KeyObject;
}

export function newEcKeyPair(): { publicKey: KeyObject; privateKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

/** A self-signed authority valid from `validFrom` for `years`. */
export function createCertificateAuthority(
  authorityName: string,
  validFrom: Date,
  years = 20,
): CertificateAuthority {
  const { publicKey, privateKey } = newEcKeyPair();
  const notAfter = new Date(validFrom);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + years);
  const certificatePem = issueCertificate({
    subjectName: authorityName,
    subjectPublicKey: publicKey,
    selfPrivateKey: privateKey,
    notBefore: validFrom,
    notAfter,
    isAuthority: true,
  });
  return { name: authorityName, certificatePem, privateKey };
}

/** Where the development CA lives in DATA_DIR; the e2e test host reads the same files. */
export function developmentCaPaths(dataDir: string): { certificate: string; privateKey: string } {
  return {
    certificate: path.join(dataDir, 'identity-dev-ca.pem'),
    privateKey: path.join(dataDir, 'identity-dev-ca.key.pem'),
  };
}

/**
 * The development identity CA, generated once into DATA_DIR (like the secrets) so that
 * verification works out of the box outside production; answers its certificate PEM.
 */
export function ensureDevelopmentCa(dataDir: string): string {
  const files = developmentCaPaths(dataDir);
  if (existsSync(files.certificate) && existsSync(files.privateKey)) {
    return readFileSync(files.certificate, 'utf8');
  }
  // Valid over any clock a test or demo may set (CLOCK_OFFSET_MS, manual clocks).
  const authority = createCertificateAuthority(
    'Shinobu development identity CA',
    new Date('2000-01-01T00:00:00Z'),
    100,
  );
  writeFileSync(
    files.privateKey,
    authority.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    { mode: 0o600 },
  );
  writeFileSync(files.certificate, authority.certificatePem);
  return authority.certificatePem;
}
