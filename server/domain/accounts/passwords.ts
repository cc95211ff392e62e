import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { passwordSchema } from '../../../src/validation/account';

/**
 * scrypt with N = 2^15, r = 8, p = 1 (32 MiB of memory per hash). The
 * parameters travel inside each stored hash, so raising them later keeps old hashes valid.
 */
export const SCRYPT_COST: ScryptCost = { log2N: 15, r: 8, p: 1 };
interface ScryptCost {
  log2N: number;
  r: number;
  p: number;
}

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function deriveKey(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** cost.log2N,
    r: cost.r,
    p: cost.p,
    // scrypt needs 128·N·r bytes; the default cap is exactly 32 MiB, so leave room above it.
    maxmem: 256 * 2 ** cost.log2N * cost.r,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$log2N$r$p$salt$key`, salt and key base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await deriveKey(password, salt, SCRYPT_COST);
  const { log2N, r, p } = SCRYPT_COST;
  return ['scrypt', log2N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, log2N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const cost = { log2N: Number(log2N), r: Number(r), p: Number(p) };
  const actual = await deriveKey(password, Buffer.from(salt, 'base64url'), cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
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

const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt'),
    'utf8',
  )
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean),
);

/** True for a password on the shipped list, compared case-insensitively. */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.normalize('NFKC').toLowerCase());
}

/** The shared length rules plus the common-password list, which only the server holds. */
export const serverPasswordSchema = passwordSchema.refine(
  (password) => !isCommonPassword(password),
  'password_too_common',
) as z.ZodType<string>;
