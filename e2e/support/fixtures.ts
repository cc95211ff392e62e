import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { E2E_FPOS, E2E_LINE_CLIENT } from './socialProvider';

export { expect } from '@playwright/test';

/** The server one Playwright worker runs its specs against, and what it was started with. */
export interface WorkerServer {
  baseURL: string;
  /** The server's DATA_DIR: its outbox and the development CA the specs read. */
  dataDir: string;
  /** The local OpenID Connect provider this worker's server knows as LINE. */
  line: { port: number; issuer: string; clientId: string; clientSecret: string };
}

let current: WorkerServer | undefined;

/**
 * The server of the worker this runs in. Support code reads it here rather than taking it as an
 * argument: each worker is a process of its own with exactly one server.
 */
export function workerServer(): WorkerServer {
  if (!current) throw new Error('no e2e server: import test from e2e/support/fixtures');
  return current;
}

/** Resolves once nothing listens on the port (a restarted worker's predecessor has let go). */
async function portFree(port: number, deadline: number): Promise<void> {
  for (;;) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return;
    if (Date.now() > deadline) throw new Error(`port ${port} stays taken: stop what listens there`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function untilHealthy(baseURL: string, server: ChildProcess, deadline: number) {
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the e2e server exited (${server.exitCode})`);
    const healthy = await fetch(`${baseURL}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    if (Date.now() > deadline) throw new Error(`the e2e server at ${baseURL} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function serverEnv(port: number, dataDir: string, line: WorkerServer['line']) {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    // e2e/globalSetup.ts built the SPA once for every worker's server.
    SHINOBU_SKIP_BUILD: 'true',
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
    // LINE points at the OpenID Connect provider the specs that sign in with it start on this
    // worker's port; the server discovers it only when someone signs in with it, so the other
    // specs run with it down (the login screen just shows one more button).
    LINE_CLIENT_ID: line.clientId,
    LINE_CLIENT_SECRET: line.clientSecret,
    LINE_ISSUER: line.issuer,
    // The external integration e2e/integrationLink.spec.ts links and reports as.
    FPOS_CLIENTS: `${E2E_FPOS.clientId}:${E2E_FPOS.secret}`,
  };
}

/**
 * Every spec imports `test` from here. Each worker starts its own server (`node
 * scripts/start.mjs`, what `npm start` runs) on E2E_PORT + its parallel index, with a fresh
 * temporary DATA_DIR and so its own database, outbox and test clock: specs in different
 * workers never see each other's members or clock moves. Its LINE provider port is
 * E2E_OIDC_PORT + the same index. The pages and requests of its tests go to that server.
 */
export const test = base.extend<object, { e2eServer: WorkerServer }>({
  e2eServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's own needs from this pattern: none.
    async ({}, provide, workerInfo) => {
      const port = Number(process.env.E2E_PORT ?? 4173) + workerInfo.parallelIndex;
      const linePort = Number(process.env.E2E_OIDC_PORT ?? 4341) + workerInfo.parallelIndex;
      const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-e2e-'));
      const line = { port: linePort, issuer: `http://127.0.0.1:${linePort}`, ...E2E_LINE_CLIENT };
      const deadline = Date.now() + 150_000;
      await portFree(port, deadline);
      const server = spawn(process.execPath, ['scripts/start.mjs'], {
        env: serverEnv(port, dataDir, line),
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const exited = new Promise((resolve) => server.once('exit', resolve));
      try {
        current = { baseURL: `http://127.0.0.1:${port}`, dataDir, line };
        await untilHealthy(current.baseURL, server, deadline);
        await provide(current);
      } finally {
        current = undefined;
        if (server.exitCode === null) server.kill('SIGTERM');
        await exited;
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', auto: true, timeout: 180_000 },
  ],
  baseURL: async ({ e2eServer }, provide) => provide(e2eServer.baseURL),
});
