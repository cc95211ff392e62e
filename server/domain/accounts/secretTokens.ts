import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: refresh tokens and mailed links. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of a secret token or a spent proof. The token already carries 256
 * bits of entropy, so one SHA-256 pass is enough: a stolen table yields nothing usable.
 * `hex` is the form the invitation, check-in and letter-claim tables hold; another form would
 * strand the links already sent.
 */
export function hashSecretToken(
  token: string,
  encoding: 'base64url' | 'hex' = 'base64url',
): string {
  return createHash('sha256').update(token).digest(encoding);
}
