import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, accessSync, constants } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import type { DatabaseTimeouts } from './db/database';
import { ensureDevelopmentCa } from './x509/certificateIssuer';
import { parseTrustAnchors } from './x509/certificates';

/**
 * Every setting Shinobu reads from the environment. The README's configuration table lists
 * the same variables; keep the two together.
 */
export interface Config {
  production: boolean;
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Bounds of every PostgreSQL call a running server makes (not of migrations). */
  databaseTimeouts: DatabaseTimeouts;
  smtpUrl: string | undefined;
  mailFrom: string;
  redisUrl: string | undefined;
  s3: S3Config | undefined;
  logLevel: string;
  /** Signs access tokens, session cookies and embedded-store file URLs. */
  authSecret: string;
  /** AUTH_SECRET came from the environment, not from DATA_DIR/secrets.json (NO_SECRET otherwise). */
  authSecretGiven: boolean;
  /** Encrypts ending-note asset and account fields at rest (32 bytes, base64). */
  dataEncryptionKey: string;
  /** Shifts the server clock for tests and demos; never set in production. */
  clockOffsetMs: number;
  /**
   * Lets `POST /v1/test/clock` move the server clock forward (e2e of timed work: letters,
   * grace periods); never set in production.
   */
  testClockControl: boolean;
  /** Runs scheduled work (delivery, sweeps) in this process. */
  runJobs: boolean;
  /** Sign-in attempts one client address may make per 15 minutes; 0 turns the limit off. */
  loginAttemptsPerClient: number;
  /**
   * How long one instance may keep a member's session state (epoch, status) in memory; every
   * ended session drops it at once by NOTIFY, this bounds a lost notification. 0: read always.
   */
  sessionCacheTtlMs: number;
  /** New non-member addresses one member may give letters to per 24 hours. */
  letterNewGuestAddressesPerDay: number;
  /** Which proxies may name the client address (Fastify `trustProxy`); false: none. */
  trustProxy: TrustProxy;
  /** Prefix of every Redis key, so that deployments can share one Redis. */
  redisPrefix: string;
  /** Per-client request limits of the costly calls (server/http/rateLimits.ts). */
  rateLimits: RateLimitConfig;
  /** Social-login providers with credentials set; each is offered only when listed here. */
  oauthProviders: OAuthProviderConfig[];
  /** Death detection and identity verification (docs/death-detection.md). */
  deathDetection: DeathDetectionConfig;
  /** Bearer token of GET /metrics; unset: no metrics endpoint. */
  metricsToken: string | undefined;
  /** How long a stopping server may take to finish in-flight requests before it exits. */
  shutdownTimeoutMs: number;
  /** The mail outbox's backoff and claim (server/mail/outbox.ts). */
  mailRetry: MailRetryConfig;
}

/**
 * The outbox's timing. The defaults suit a real relay; the crash run shortens them so that a
 * relay failing for a minute costs the run seconds, not the hours of a doubled backoff.
 */
export interface MailRetryConfig {
  /** Wait after the first failed send; each further failure doubles it. */
  firstRetryMs: number;
  /** The longest wait between two tries. */
  maxRetryMs: number;
  /** How long a claimed mail is held for its sender before another instance may send it. */
  claimMs: number;
}

export const DEFAULT_MAIL_RETRY: MailRetryConfig = {
  firstRetryMs: 60 * 1000,
  maxRetryMs: 6 * 60 * 60 * 1000,
  claimMs: 5 * 60 * 1000,
};

/** A claim shorter than this could expire while its batch is still being sent (a duplicate). */
const MIN_MAIL_CLAIM_MS = 10_000;

export interface DeathDetectionConfig {
  /** PEM certificates app-registered identity certificates must chain to. */
  identityTrustAnchorsPem: string;
  /** One revoked certificate per line (SHA-256 fingerprint or serial), re-read every sweep. */
  identityRevocationListFile: string | undefined;
  /** Days after confirmation before anything is released; the member can still undo. */
  gracePeriodDays: number;
  /** Days a check-in mail may stay unanswered before inactivity raises suspicion. */
  checkInAnswerDays: number;
  /** External integrations allowed to report (FPOS_CLIENTS). */
  fposClients: { clientId: string; secret: string }[];
  /** Push notifications go to this gateway as JSON; unset: they are logged. */
  pushWebhookUrl: string | undefined;
}

/** A number of trusted hops, or the addresses (and CIDR ranges) of trusted proxies. */
export type TrustProxy = false | number | string[];

export const RATE_LIMIT_GROUPS = ['mail', 'upload', 'search', 'deathReport', 'auth'] as const;
export type RateLimitGroup = (typeof RATE_LIMIT_GROUPS)[number];

/** Requests per window and client address; `max` 0 turns the group's limit off. */
export type RateLimitConfig = Record<RateLimitGroup, { max: number; windowMs: number }>;

export const OAUTH_PROVIDER_IDS = ['line', 'google', 'facebook', 'twitter'] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

export interface OAuthProviderConfig {
  id: OAuthProviderId;
  clientId: string;
  clientSecret: string;
  /** An OpenID Connect issuer replacing the provider's own endpoints (tests, proxies). */
  issuer: string | undefined;
}

export interface S3Config {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  /** `codes`: the session layer's codes (NO_SECRET and the like) among the problems, logged by the start. */
  constructor(
    readonly problems: string[],
    readonly codes: readonly string[] = [],
  ) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

const SECRET_NAMES = ['AUTH_SECRET', 'DATA_ENCRYPTION_KEY'] as const;

/** The shortest AUTH_SECRET production accepts. */
export const AUTH_SECRET_MIN_BYTES = 32;
type SecretName = (typeof SECRET_NAMES)[number];

type Env = Record<string, string | undefined>;

/** Reads and validates the environment; throws ConfigError with one line per bad value. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';

  const port = parsePort(env.PORT, problems);
  const host = env.HOST ?? (production ? '0.0.0.0' : '127.0.0.1');
  const { dataDir, databaseUrl, s3 } = parseStore(env, problems);
  const databaseTimeouts = parseDatabaseTimeouts(env, problems);
  const smtpUrl = optionalUrl('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:'], problems);
  const redisUrl = optionalUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:'], problems);
  const publicUrl =
    optionalUrl('PUBLIC_URL', env.PUBLIC_URL, ['http:', 'https:'], problems)?.replace(/\/$/, '') ??
    `http://localhost:${port}`;
  const logLevel = env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(
      `LOG_LEVEL: "${logLevel}" is not one of fatal, error, warn, info, debug, trace, silent`,
    );
  }
  const clockOffsetMs = parseClockOffset(env.CLOCK_OFFSET_MS, production, problems);
  const testClockControl = parseTestClockControl(env.TEST_CLOCK_CONTROL, production, problems);
  const oauthProviders = parseOAuthProviders(env, problems);
  const loginAttemptsPerClient = parseCount(
    'LOGIN_MAX_ATTEMPTS_PER_CLIENT',
    env.LOGIN_MAX_ATTEMPTS_PER_CLIENT,
    30,
    problems,
  );
  const sessionCacheTtlMs = parseCount(
    'SESSION_CACHE_TTL_MS',
    env.SESSION_CACHE_TTL_MS,
    30_000,
    problems,
  );
  const letterNewGuestAddressesPerDay = parseCount(
    'LETTER_NEW_GUEST_ADDRESSES_PER_DAY',
    env.LETTER_NEW_GUEST_ADDRESSES_PER_DAY,
    5,
    problems,
  );

  const deathDetection = parseDeathDetection(env, production, dataDir, problems);
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);
  const rateLimits = parseRateLimits(env, problems);
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) {
    problems.push('METRICS_TOKEN: at least 16 characters (generate with: openssl rand -hex 24)');
  }
  const shutdownTimeoutMs = parseCount(
    'SHUTDOWN_TIMEOUT_MS',
    env.SHUTDOWN_TIMEOUT_MS,
    10_000,
    problems,
  );
  const mailRetry = parseMailRetry(env, problems);

  const missingSecrets = production ? SECRET_NAMES.filter((name) => !env[name]) : [];
  if (missingSecrets.length > 0) {
    problems.push(
      `${missingSecrets.join(', ')}: required when NODE_ENV=production (generate with: openssl rand -base64 32)`,
    );
  }
  // A short secret can be guessed offline from any token it signed; 32 bytes is 256 bits.
  if (production && env.AUTH_SECRET && Buffer.byteLength(env.AUTH_SECRET) < AUTH_SECRET_MIN_BYTES) {
    problems.push(
      `AUTH_SECRET: must be at least ${AUTH_SECRET_MIN_BYTES} bytes when NODE_ENV=production (generate with: openssl rand -base64 32)`,
    );
  }
  const codes = missingSecrets.includes('AUTH_SECRET') ? ['NO_SECRET'] : [];
  const secrets = problems.length === 0 ? resolveSecrets(env, dataDir, problems) : undefined;
  if (problems.length > 0 || !secrets) throw new ConfigError(problems, codes);

  return {
    production,
    host,
    port,
    publicUrl,
    dataDir,
    databaseUrl,
    databaseTimeouts,
    smtpUrl,
    mailFrom: env.MAIL_FROM ?? 'Shinobu <no-reply@shinobu.local>',
    redisUrl,
    s3,
    logLevel,
    authSecret: secrets.AUTH_SECRET,
    authSecretGiven: Boolean(env.AUTH_SECRET),
    dataEncryptionKey: secrets.DATA_ENCRYPTION_KEY,
    clockOffsetMs,
    testClockControl,
    runJobs: env.RUN_JOBS !== 'false',
    loginAttemptsPerClient,
    sessionCacheTtlMs,
    letterNewGuestAddressesPerDay,
    trustProxy,
    redisPrefix: env.REDIS_PREFIX ?? 'shinobu:',
    rateLimits,
    oauthProviders,
    deathDetection,
    metricsToken,
    shutdownTimeoutMs,
    mailRetry,
  };
}

function parseDatabaseTimeouts(env: Env, problems: string[]): DatabaseTimeouts {
  const statementMs = parseCount(
    'DATABASE_STATEMENT_TIMEOUT_MS',
    env.DATABASE_STATEMENT_TIMEOUT_MS,
    5000,
    problems,
  );
  const queryMs = parseCount(
    'DATABASE_QUERY_TIMEOUT_MS',
    env.DATABASE_QUERY_TIMEOUT_MS,
    statementMs + 1000,
    problems,
  );
  if (statementMs === 0) {
    problems.push('DATABASE_STATEMENT_TIMEOUT_MS: must be more than 0 (every call is bounded)');
  }
  // The server's cancel must come first: it leaves the connection usable.
  if (queryMs <= statementMs) {
    problems.push(
      `DATABASE_QUERY_TIMEOUT_MS: ${queryMs} is not longer than DATABASE_STATEMENT_TIMEOUT_MS (${statementMs})`,
    );
  }
  return { statementMs, queryMs };
}

function parseMailRetry(env: Env, problems: string[]): MailRetryConfig {
  const firstRetryMs = parseCount(
    'MAIL_RETRY_FIRST_MS',
    env.MAIL_RETRY_FIRST_MS,
    DEFAULT_MAIL_RETRY.firstRetryMs,
    problems,
  );
  const maxRetryMs = parseCount(
    'MAIL_RETRY_MAX_MS',
    env.MAIL_RETRY_MAX_MS,
    DEFAULT_MAIL_RETRY.maxRetryMs,
    problems,
  );
  const claimMs = parseCount(
    'MAIL_CLAIM_MS',
    env.MAIL_CLAIM_MS,
    DEFAULT_MAIL_RETRY.claimMs,
    problems,
  );
  if (maxRetryMs < firstRetryMs)
    problems.push(
      `MAIL_RETRY_MAX_MS: ${maxRetryMs} is shorter than MAIL_RETRY_FIRST_MS (${firstRetryMs})`,
    );
  if (claimMs < MIN_MAIL_CLAIM_MS)
    problems.push(
      `MAIL_CLAIM_MS: ${claimMs} is shorter than ${MIN_MAIL_CLAIM_MS} (a mail could be sent twice)`,
    );
  return { firstRetryMs, maxRetryMs, claimMs };
}

/** Where a Shinobu keeps its data: what the operations commands (backup, restore, migrate-store) read. */
export interface StoreConfig {
  dataDir: string;
  databaseUrl: string | undefined;
  s3: S3Config | undefined;
}

/** DATA_DIR, DATABASE_URL and S3_* checked as a start checks them, without touching secrets. */
export function loadStoreConfig(env: Env = process.env): StoreConfig {
  const problems: string[] = [];
  const store = parseStore(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return store;
}

/** The store's settings, read by the server's start and the operations commands alike. */
function parseStore(env: Env, problems: string[]): StoreConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  checkDataDir(dataDir, problems);
  const databaseUrl = optionalUrl(
    'DATABASE_URL',
    env.DATABASE_URL,
    ['postgres:', 'postgresql:'],
    problems,
  );
  return { dataDir, databaseUrl, s3: parseS3(env, problems) };
}

/**
 * IDENTITY_TRUST_ANCHORS is PEM text or the path of a PEM file. Production never trusts a
 * generated CA: without it, identity verification answers 503 (and so no death can be
 * confirmed). Elsewhere a development CA is generated once into DATA_DIR (tests and the e2e
 * app-bridge host issue certificates with it).
 */
function parseDeathDetection(
  env: Env,
  production: boolean,
  dataDir: string,
  problems: string[],
): DeathDetectionConfig {
  let identityTrustAnchorsPem = '';
  const anchors = env.IDENTITY_TRUST_ANCHORS;
  if (anchors) {
    try {
      identityTrustAnchorsPem = anchors.includes('-----BEGIN')
        ? anchors
        : readFileSync(anchors, 'utf8');
      if (parseTrustAnchors(identityTrustAnchorsPem).length === 0) throw new Error('empty');
    } catch {
      problems.push('IDENTITY_TRUST_ANCHORS: not PEM CA certificates nor a file holding them');
    }
  } else if (!production && problems.length === 0) {
    identityTrustAnchorsPem = ensureDevelopmentCa(dataDir);
  }
  const fposClients = (env.FPOS_CLIENTS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .flatMap((entry) => {
      const [clientId, secret] = entry.split(':');
      if (clientId && secret && secret.length >= 16) return [{ clientId, secret }];
      problems.push('FPOS_CLIENTS: each entry is client_id:secret (secret 16+ characters)');
      return [];
    });
  return {
    identityTrustAnchorsPem,
    identityRevocationListFile: env.IDENTITY_REVOCATION_LIST_FILE || undefined,
    gracePeriodDays: parseCount(
      'DEATH_GRACE_PERIOD_DAYS',
      env.DEATH_GRACE_PERIOD_DAYS,
      7,
      problems,
    ),
    checkInAnswerDays: parseCount(
      'DEATH_CHECK_IN_ANSWER_DAYS',
      env.DEATH_CHECK_IN_ANSWER_DAYS,
      14,
      problems,
    ),
    fposClients,
    pushWebhookUrl: optionalUrl(
      'PUSH_WEBHOOK_URL',
      env.PUSH_WEBHOOK_URL,
      ['http:', 'https:'],
      problems,
    ),
  };
}

function parsePort(raw: string | undefined, problems: string[]): number {
  if (raw === undefined || raw === '') return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT: "${raw}" is not a port number (0-65535)`);
    return 3000;
  }
  return port;
}

function parseClockOffset(
  raw: string | undefined,
  production: boolean,
  problems: string[],
): number {
  if (raw === undefined || raw === '') return 0;
  const offset = Number(raw);
  if (!Number.isFinite(offset)) problems.push(`CLOCK_OFFSET_MS: "${raw}" is not a number`);
  else if (production) problems.push('CLOCK_OFFSET_MS: must not be set in production');
  return Number.isFinite(offset) ? offset : 0;
}

function parseTestClockControl(
  raw: string | undefined,
  production: boolean,
  problems: string[],
): boolean {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw !== 'true') problems.push(`TEST_CLOCK_CONTROL: "${raw}" is not true or false`);
  else if (production) problems.push('TEST_CLOCK_CONTROL: must not be set in production');
  return raw === 'true' && !production;
}

/** `<ID>_CLIENT_ID` and `<ID>_CLIENT_SECRET` (both or neither), `<ID>_ISSUER` optional. */
function parseOAuthProviders(env: Env, problems: string[]): OAuthProviderConfig[] {
  return OAUTH_PROVIDER_IDS.flatMap((id) => {
    const prefix = id.toUpperCase();
    const clientId = env[`${prefix}_CLIENT_ID`];
    const clientSecret = env[`${prefix}_CLIENT_SECRET`];
    if (!clientId && !clientSecret) return [];
    if (!clientId || !clientSecret) {
      problems.push(`${prefix}_CLIENT_ID, ${prefix}_CLIENT_SECRET: set both or neither`);
      return [];
    }
    const issuer = optionalUrl(
      `${prefix}_ISSUER`,
      env[`${prefix}_ISSUER`],
      ['http:', 'https:'],
      problems,
    );
    return [{ id, clientId, clientSecret, issuer: issuer?.replace(/\/$/, '') }];
  });
}

function parseCount(
  name: string,
  raw: string | undefined,
  fallback: number,
  problems: string[],
): number {
  if (raw === undefined || raw === '') return fallback;
  const count = Number(raw);
  if (Number.isInteger(count) && count >= 0) return count;
  problems.push(`${name}: "${raw}" is not a whole number (0 or more)`);
  return fallback;
}

function optionalUrl(
  name: string,
  raw: string | undefined,
  protocols: string[],
  problems: string[],
): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`${name}: not a valid URL`);
    return undefined;
  }
  if (!protocols.includes(url.protocol)) {
    problems.push(`${name}: must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    return undefined;
  }
  return raw;
}

function checkDataDir(dataDir: string, problems: string[]): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK | constants.R_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unusable';
    problems.push(`DATA_DIR: ${dataDir} is not a writable directory (${reason})`);
  }
}

function parseS3(env: Env, problems: string[]): S3Config | undefined {
  const bucket = env.S3_BUCKET;
  const anyS3 = Object.keys(env).some((key) => key.startsWith('S3_') && env[key]);
  if (!anyS3) return undefined;
  const missing = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter(
    (key) => !env[key],
  );
  for (const key of missing) problems.push(`${key}: required when any S3_* variable is set`);
  if (env.S3_ENDPOINT) optionalUrl('S3_ENDPOINT', env.S3_ENDPOINT, ['http:', 'https:'], problems);
  if (missing.length > 0 || !bucket) return undefined;
  return {
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION ?? 'ap-northeast-1',
    bucket,
    accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
  };
}

/**
 * A newcomer's secrets are generated once and kept in DATA_DIR so that sessions and
 * encrypted data survive restarts; production must be given them explicitly (checked by the
 * caller). A secrets file that exists but cannot be read stops the start: replacing it would
 * make every session and every encrypted field unreadable.
 */
function resolveSecrets(
  env: Env,
  dataDir: string,
  problems: string[],
): Record<SecretName, string> | undefined {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Record<SecretName, string>> = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      problems.push(`DATA_DIR: ${file} is unreadable or not JSON; restore it from a backup`);
      return undefined;
    }
  }
  const result = {} as Record<SecretName, string>;
  let changed = false;
  for (const name of SECRET_NAMES) {
    const value = env[name] ?? stored[name];
    if (value) {
      result[name] = value;
    } else {
      result[name] = randomBytes(32).toString('base64');
      stored[name] = result[name];
      changed = true;
    }
  }
  if (Buffer.from(result.DATA_ENCRYPTION_KEY, 'base64').length !== 32) {
    problems.push('DATA_ENCRYPTION_KEY: must be 32 bytes encoded as base64');
    return undefined;
  }
  if (changed) writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  return result;
}

/**
 * TRUST_PROXY: unset or 0 trusts no proxy (the address is the connection's own), a whole
 * number trusts that many hops of X-Forwarded-For, and a comma list names the proxies'
 * addresses or CIDR ranges. `true` is refused: it would let any client name its address.
 */
function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '0') return false;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => {
    const [address, bits, extra] = entry.split('/');
    if (extra !== undefined || !address || isIP(address) === 0) return true;
    const max = isIP(address) === 4 ? 32 : 128;
    return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max);
  });
  if (bad.length > 0) {
    problems.push(
      `TRUST_PROXY: "${bad.join(', ')}" is not a number of hops nor a list of proxy addresses or CIDR ranges`,
    );
    return false;
  }
  return entries;
}

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/** The defaults a public service would start with (docs/accounts.md "Rate limits"). */
const RATE_LIMIT_DEFAULTS: Record<RateLimitGroup, { env: string; max: number; windowMs: number }> =
  {
    mail: { env: 'RATE_LIMIT_MAIL_PER_HOUR', max: 20, windowMs: HOUR_MS },
    upload: { env: 'RATE_LIMIT_UPLOAD_PER_HOUR', max: 120, windowMs: HOUR_MS },
    search: { env: 'RATE_LIMIT_SEARCH_PER_MINUTE', max: 60, windowMs: MINUTE_MS },
    deathReport: { env: 'RATE_LIMIT_DEATH_REPORT_PER_HOUR', max: 30, windowMs: HOUR_MS },
    auth: { env: 'RATE_LIMIT_AUTH_PER_MINUTE', max: 300, windowMs: MINUTE_MS },
  };

function parseRateLimits(env: Env, problems: string[]): RateLimitConfig {
  const limits = {} as RateLimitConfig;
  for (const group of RATE_LIMIT_GROUPS) {
    const { env: name, max, windowMs } = RATE_LIMIT_DEFAULTS[group];
    limits[group] = { max: parseCount(name, env[name], max, problems), windowMs };
  }
  return limits;
}
