import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Sealing of ending-note asset and account values at rest: AES-256-GCM with the server's
 * DATA_ENCRYPTION_KEY, a fresh random 96-bit IV per value, and the value's place (owner,
 * section, field) as additional authenticated data, so a sealed value copied into another
 * member's row or field does not open. A sealed value reads
 * `<key version>:<base64url(iv ‖ tag ‖ ciphertext)>`; the version lets a later key rotation
 * keep opening values sealed under the previous key.
 */
export interface Sealer {
  seal(plaintext: string, place: string): string;
  open(sealed: string, place: string): string;
}

/** The version written in front of every value sealed with today's key. */
export const CURRENT_KEY_VERSION = 'k1';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function createSealer(base64Key: string): Sealer {
  const key = Buffer.from(base64Key, 'base64');
  if (key.length !== 32) throw new Error('the data encryption key must be 32 bytes');
  const keys = new Map([[CURRENT_KEY_VERSION, key]]);
  return {
    seal(plaintext, place) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(place, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const data = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
      return `${CURRENT_KEY_VERSION}:${data}`;
    },
    open(sealed, place) {
      const separator = sealed.indexOf(':');
      const versionKey = keys.get(sealed.slice(0, separator));
      if (separator < 0 || !versionKey) throw new Error('sealed with an unknown key version');
      const data = Buffer.from(sealed.slice(separator + 1), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', versionKey, data.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(place, 'utf8'));
      decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(data.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
