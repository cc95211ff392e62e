// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-config-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function configOf(env: Record<string, string>) {
  return loadConfig({ DATA_DIR: dataDir, ...env });
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    configOf(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told', () => {
    expect(configOf({}).trustProxy).toBe(false);
    expect(configOf({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('takes a number of hops or a list of addresses and CIDR ranges', () => {
    expect(configOf({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(configOf({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
    ]);
  });

  it('refuses true (any client could name its address) and anything not an address', () => {
    for (const value of ['true', 'loadbalancer', '10.0.0.1/33', '10.0.0.1,', '1.5']) {
      expect(problemsOf({ TRUST_PROXY: value })).toEqual([expect.stringMatching(/^TRUST_PROXY: /)]);
    }
  });
});

describe('rate limits', () => {
  it('starts with the documented defaults, each configurable and 0 for off', () => {
    const { rateLimits, redisPrefix } = configOf({});
    expect(rateLimits).toEqual({
      mail: { max: 20, windowMs: 3_600_000 },
      upload: { max: 120, windowMs: 3_600_000 },
      search: { max: 60, windowMs: 60_000 },
      deathReport: { max: 30, windowMs: 3_600_000 },
      auth: { max: 300, windowMs: 60_000 },
    });
    expect(redisPrefix).toBe('shinobu:');
    const set = configOf({ RATE_LIMIT_MAIL_PER_HOUR: '0', RATE_LIMIT_SEARCH_PER_MINUTE: '5' });
    expect(set.rateLimits.mail.max).toBe(0);
    expect(set.rateLimits.search.max).toBe(5);
  });

  it('refuses a limit that is not a whole number', () => {
    expect(problemsOf({ RATE_LIMIT_AUTH_PER_MINUTE: 'many' })).toEqual([
      'RATE_LIMIT_AUTH_PER_MINUTE: "many" is not a whole number (0 or more)',
    ]);
  });
});
