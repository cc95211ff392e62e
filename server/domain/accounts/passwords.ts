import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { z } from 'zod';
import { passwordSchema } from '../../../contract/rules/account';
import { isBreachedPassword } from './breachedPasswords';

/**
 * argon2id at OWASP's minimum: 19 MiB, two passes, one lane. The package's default
 * algorithm is argon2id (its `Algorithm` is a const enum, which isolated modules cannot
 * name). The parameters travel inside each PHC string, so raising them later keeps old
 * hashes valid and `needsRehash` upgrades them at the next sign-in.
 */
export const ARGON2_COST = { memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2_COST.memoryCost},t=${ARGON2_COST.timeCost},p=${ARGON2_COST.parallelism}$`;

/** Passwords are NFKC-normalised, so that the same characters typed on any keyboard match. */
export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFKC'), ARGON2_COST);
}

/** True when a stored hash is of an older scheme or cost and should be replaced. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(CURRENT_PREFIX);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('scrypt$')) return verifyLegacyScrypt(password, stored);
  if (!stored.startsWith('$argon2')) return false;
  return verify(stored, password.normalize('NFKC'));
}

/** The earlier scheme, `scrypt$log2N$r$p$salt$key` (base64url), verified until upgraded. */
function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, log2N, r, p, salt, key] = stored.split('$');
  if (!salt || !key) return Promise.resolve(false);
  const expected = Buffer.from(key, 'base64url');
  const N = 2 ** Number(log2N);
  const options = { N, r: Number(r), p: Number(p), maxmem: 256 * N * Number(r) };
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      Buffer.from(salt, 'base64url'),
      expected.length,
      options,
      (error, actual) =>
        error
          ? reject(error)
          : resolve(actual.length === expected.length && timingSafeEqual(actual, expected)),
    ),
  );
}

let decoyHash: Promise<string> | undefined;

/**
 * Checks a password when there is no account (or no password) to check it against, doing the
 * same work as a real check, so that the answer's timing does not reveal whether an email
 * has an account.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword(randomBytes(18).toString('base64url'));
  await verifyPassword(password, await decoyHash);
  return false;
}

/** The shared length rules plus the breached-password list, which only the server holds. */
export const serverPasswordSchema = passwordSchema.refine(
  (password) => !isBreachedPassword(password),
  'password_too_common',
) as z.ZodType<string>;
