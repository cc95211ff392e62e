// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

const SECRETS = {
  AUTH_SECRET: 'an-auth-secret-of-enough-length-0123456789',
  DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

/** The problem lines loadConfig reports for env, or [] when it accepts it. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: dataDir, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('configuration', () => {
  it('starts a newcomer with no variables at all on the embedded defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      dataDir,
      databaseUrl: undefined,
      smtpUrl: undefined,
      redisUrl: undefined,
      s3: undefined,
      logLevel: 'info',
      production: false,
      runJobs: true,
    });
  });

  it.each([
    ['PORT', 'abc', 'PORT: "abc" is not a port number (0-65535)'],
    ['PORT', '70000', 'PORT: "70000" is not a port number (0-65535)'],
    ['PORT', '-1', 'PORT: "-1" is not a port number (0-65535)'],
    ['DATABASE_URL', 'not a url', 'DATABASE_URL: not a valid URL'],
    ['DATABASE_URL', 'mysql://db/x', 'DATABASE_URL: must start with postgres:// or postgresql://'],
    ['SMTP_URL', 'http://mail', 'SMTP_URL: must start with smtp:// or smtps://'],
    ['REDIS_URL', 'memcached://cache', 'REDIS_URL: must start with redis:// or rediss://'],
    ['PUBLIC_URL', 'ftp://shinobu.example', 'PUBLIC_URL: must start with http:// or https://'],
    ['PUBLIC_URL', 'shinobu.example', 'PUBLIC_URL: not a valid URL'],
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL: "loud" is not one of fatal, error, warn, info, debug, trace, silent',
    ],
    ['CLOCK_OFFSET_MS', 'soon', 'CLOCK_OFFSET_MS: "soon" is not a number'],
  ])('rejects %s=%s with one line naming it', (name, value, line) => {
    expect(problemsOf({ [name]: value })).toEqual([line]);
  });

  it('names each missing S3 variable when only some are set', () => {
    expect(problemsOf({ S3_BUCKET: 'memories' })).toEqual([
      'S3_ACCESS_KEY_ID: required when any S3_* variable is set',
      'S3_SECRET_ACCESS_KEY: required when any S3_* variable is set',
    ]);
    expect(
      problemsOf({
        S3_BUCKET: 'memories',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_ENDPOINT: 'minio:9000',
      }),
    ).toEqual(['S3_ENDPOINT: must start with http:// or https://']);
  });

  it('reads a complete S3 configuration', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      S3_BUCKET: 'memories',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.s3).toEqual({
      bucket: 'memories',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      endpoint: 'http://127.0.0.1:9000',
      region: 'ap-northeast-1',
      forcePathStyle: true,
    });
  });

  it('reports every bad value at once, one line each', () => {
    const problems = problemsOf({
      PORT: 'x',
      DATABASE_URL: 'mysql://db/x',
      SMTP_URL: 'nope',
      LOG_LEVEL: 'loud',
    });
    expect(problems).toHaveLength(4);
    expect(problems.map((line) => line.split(':')[0])).toEqual([
      'PORT',
      'DATABASE_URL',
      'SMTP_URL',
      'LOG_LEVEL',
    ]);
  });

  it('refuses a DATA_DIR it cannot write', () => {
    const file = path.join(dataDir, 'a-file');
    writeFileSync(file, 'not a folder');
    const problems = problemsOf({ DATA_DIR: path.join(file, 'data') });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^DATA_DIR: .*a-file\/data is not a writable directory \(ENOTDIR\)$/,
    );
  });

  it('stops a production start without secrets, naming the missing ones', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'AUTH_SECRET, DATA_ENCRYPTION_KEY: required when NODE_ENV=production (generate with: openssl rand -base64 32)',
    ]);
    expect(
      problemsOf({ NODE_ENV: 'production', AUTH_SECRET: SECRETS.AUTH_SECRET, PORT: 'x' }),
    ).toEqual([
      'PORT: "x" is not a port number (0-65535)',
      'DATA_ENCRYPTION_KEY: required when NODE_ENV=production (generate with: openssl rand -base64 32)',
    ]);
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production', ...SECRETS });
    expect(config).toMatchObject({ production: true, host: '0.0.0.0' });
    expect(config.authSecret).toBe(SECRETS.AUTH_SECRET);
  });

  it('refuses a production AUTH_SECRET shorter than 32 bytes', () => {
    const short = 'x'.repeat(31);
    expect(problemsOf({ NODE_ENV: 'production', ...SECRETS, AUTH_SECRET: short })).toEqual([
      'AUTH_SECRET: must be at least 32 bytes when NODE_ENV=production (generate with: openssl rand -base64 32)',
    ]);
    // Bytes, not characters: eleven three-byte characters are 33 bytes.
    expect(
      problemsOf({ NODE_ENV: 'production', ...SECRETS, AUTH_SECRET: '\u3042'.repeat(11) }),
    ).toEqual([]);
    expect(problemsOf({ NODE_ENV: 'production', ...SECRETS, AUTH_SECRET: 'y'.repeat(32) })).toEqual(
      [],
    );
    // Development keeps a newcomer's short secret working.
    expect(problemsOf({ ...SECRETS, AUTH_SECRET: short })).toEqual([]);
  });

  it('refuses a data encryption key that is not 32 bytes', () => {
    expect(problemsOf({ DATA_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toEqual([
      'DATA_ENCRYPTION_KEY: must be 32 bytes encoded as base64',
    ]);
  });

  it('generates missing secrets once, keeps them private in DATA_DIR and reuses them', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(first.dataEncryptionKey, 'base64')).toHaveLength(32);
    expect(first.authSecret).not.toBe(first.dataEncryptionKey);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.authSecret).toBe(first.authSecret);
    expect(second.dataEncryptionKey).toBe(first.dataEncryptionKey);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      AUTH_SECRET: first.authSecret,
      DATA_ENCRYPTION_KEY: first.dataEncryptionKey,
    });
  });

  it('prefers a secret from the environment over the stored one', () => {
    loadConfig({ DATA_DIR: dataDir });
    const config = loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRETS.AUTH_SECRET });
    expect(config.authSecret).toBe(SECRETS.AUTH_SECRET);
  });

  it('refuses to replace a damaged secrets file', () => {
    writeFileSync(path.join(dataDir, 'secrets.json'), '{"AUTH_SECRET": ');
    expect(problemsOf({})).toEqual([
      `DATA_DIR: ${path.join(dataDir, 'secrets.json')} is unreadable or not JSON; restore it from a backup`,
    ]);
    expect(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).toBe('{"AUTH_SECRET": ');
  });

  it('refuses a clock offset in production', () => {
    expect(problemsOf({ NODE_ENV: 'production', CLOCK_OFFSET_MS: '1000', ...SECRETS })).toEqual([
      'CLOCK_OFFSET_MS: must not be set in production',
    ]);
  });

  it('refuses the test clock control in production, and any value but true or false', () => {
    expect(problemsOf({ NODE_ENV: 'production', TEST_CLOCK_CONTROL: 'true', ...SECRETS })).toEqual([
      'TEST_CLOCK_CONTROL: must not be set in production',
    ]);
    expect(problemsOf({ TEST_CLOCK_CONTROL: 'yes' })).toEqual([
      'TEST_CLOCK_CONTROL: "yes" is not true or false',
    ]);
  });

  it('keeps the outbox at its production timing unless told, and refuses a claim short enough to send twice', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).mailRetry).toEqual({
      firstRetryMs: 60_000,
      maxRetryMs: 6 * 60 * 60 * 1000,
      claimMs: 5 * 60 * 1000,
    });
    const shortened = loadConfig({
      DATA_DIR: dataDir,
      MAIL_RETRY_FIRST_MS: '1000',
      MAIL_RETRY_MAX_MS: '16000',
      MAIL_CLAIM_MS: '30000',
    });
    expect(shortened.mailRetry).toEqual({ firstRetryMs: 1000, maxRetryMs: 16000, claimMs: 30000 });
    expect(problemsOf({ MAIL_CLAIM_MS: '5000' })).toEqual([
      'MAIL_CLAIM_MS: 5000 is shorter than 10000 (a mail could be sent twice)',
    ]);
    expect(problemsOf({ MAIL_RETRY_FIRST_MS: '5000', MAIL_RETRY_MAX_MS: '1000' })).toEqual([
      'MAIL_RETRY_MAX_MS: 1000 is shorter than MAIL_RETRY_FIRST_MS (5000)',
    ]);
    expect(problemsOf({ MAIL_RETRY_FIRST_MS: 'soon' })).toEqual([
      'MAIL_RETRY_FIRST_MS: "soon" is not a whole number (0 or more)',
    ]);
  });

  it('bounds every database call by default, and refuses a query timeout not longer than the statement timeout', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).databaseTimeouts).toEqual({
      statementMs: 5000,
      queryMs: 6000,
    });
    expect(
      loadConfig({ DATA_DIR: dataDir, DATABASE_STATEMENT_TIMEOUT_MS: '2000' }).databaseTimeouts,
    ).toEqual({ statementMs: 2000, queryMs: 3000 });
    expect(
      problemsOf({ DATABASE_STATEMENT_TIMEOUT_MS: '5000', DATABASE_QUERY_TIMEOUT_MS: '5000' }),
    ).toEqual([
      'DATABASE_QUERY_TIMEOUT_MS: 5000 is not longer than DATABASE_STATEMENT_TIMEOUT_MS (5000)',
    ]);
    expect(problemsOf({ DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toEqual([
      'DATABASE_STATEMENT_TIMEOUT_MS: must be more than 0 (every call is bounded)',
    ]);
  });
});
