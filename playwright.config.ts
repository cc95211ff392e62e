import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './e2e/support/browser';
import { E2E_FPOS, E2E_LINE } from './e2e/support/socialProvider';

const port = Number(process.env.E2E_PORT ?? 4173);
// Set once in the runner; workers inherit it, so tests can read the server's mail outbox.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'shinobu-e2e-'));
process.env.E2E_BASE_URL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    command: 'npx tsx server/main.ts',
    url: `http://127.0.0.1:${port}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // e2e of timed work moves the server clock forward with POST /v1/test/clock.
      TEST_CLOCK_CONTROL: 'true',
      // Every e2e member signs in from 127.0.0.1: the per-client limit (30 per 15 minutes) is
      // raised so that the suite's own sign-ins never add up to a 429 (the API suite tests it).
      LOGIN_MAX_ATTEMPTS_PER_CLIENT: '1000',
      // Specs that play many clients at once (e2e/lockout.spec.ts) name them in
      // X-Forwarded-For, read only from the loopback the browser and those specs come from.
      TRUST_PROXY: '127.0.0.1',
      // The same for the per-client rate limits of mail, uploads, search, death reports and
      // the session layer (test/api/rateLimits.test.ts proves them).
      RATE_LIMIT_MAIL_PER_HOUR: '10000',
      RATE_LIMIT_UPLOAD_PER_HOUR: '10000',
      RATE_LIMIT_SEARCH_PER_MINUTE: '10000',
      RATE_LIMIT_DEATH_REPORT_PER_HOUR: '10000',
      RATE_LIMIT_AUTH_PER_MINUTE: '100000',
      // LINE points at the OpenID Connect provider e2e/socialLogin.spec.ts starts locally;
      // the server discovers it only when someone signs in with it, so the other specs run
      // with it down (the login screen just shows one more button).
      LINE_CLIENT_ID: E2E_LINE.clientId,
      LINE_CLIENT_SECRET: E2E_LINE.clientSecret,
      LINE_ISSUER: E2E_LINE.issuer,
      // The external integration e2e/integrationLink.spec.ts links and reports as.
      FPOS_CLIENTS: `${E2E_FPOS.clientId}:${E2E_FPOS.secret}`,
    },
  },
});
