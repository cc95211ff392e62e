import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './e2e/support/browser';

/**
 * Each worker runs its specs against a server of its own (e2e/support/fixtures.ts), so files
 * run side by side; the tests of one file keep their order in one worker. E2E_WORKERS=1 runs
 * them all one after another, on one server.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './e2e/globalSetup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Three: the tests mostly wait on the browser and the server (decision 448).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    // Recording a trace for every test costs about a fifth of the suite's CPU, and a failed
    // run is read from its error and screenshot; `--trace on` records one when a spec is rerun.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium' }],
});
