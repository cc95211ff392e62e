import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseTarget } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { systemClock } from '../server/lib/clock';
import { createMember, type TestMember } from '../test/support/members';
import { createPostgresDatabase } from '../test/support/testDatabase';
import { RATE_LIMITS_OFF } from '../test/support/testApp';

/** Ports of the bench's own servers (the foundation's range 4240-4249). */
export const BENCH_PORTS = { coldStart: 4245, app: 4246, bare: 4247, lighthouse: 4248 } as const;

const TSX = path.resolve('node_modules/.bin/tsx');
/** What `npm start` runs: the server bundled by esbuild, then run. */
const START = path.resolve('scripts/start.mjs');

/** A place for one production server's data: a DATA_DIR and, on PostgreSQL, a fresh database. */
export interface BenchSite {
  env: Record<string, string>;
  /** A member with an icon, written before start, with a bearer token from the server's key. */
  member: TestMember;
  remove(): Promise<void>;
}

/**
 * Creates a migrated database with one member, on PGlite in a new DATA_DIR or, given a
 * PostgreSQL server URL, in a new database there. The server later started on it finds an
 * existing DATA_DIR, as a restart would.
 */
export async function createBenchSite(postgresServerUrl?: string): Promise<BenchSite> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-bench-'));
  const scratch = postgresServerUrl ? await createPostgresDatabase(postgresServerUrl) : undefined;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    // Start-up is measured without the SPA build, which runs only after the sources change.
    SHINOBU_SKIP_BUILD: 'true',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    AUTH_SECRET: randomBytes(32).toString('base64'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // The load generator is one client address: per-client rate limits would measure
    // themselves, not the calls (bench/accounts.ts measures them under a flood).
    ...RATE_LIMITS_OFF,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  };
  const target: DatabaseTarget = scratch
    ? { kind: 'postgres', url: scratch.url }
    : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') };
  const database = await openDatabase(target);
  await migrate(database);
  const member = await createMember(
    { ctx: { database }, clock: systemClock(), config: { authSecret: env.AUTH_SECRET! } },
    // With an icon, the user detail read signs its GET URL as a real member's does.
    { iconName: 'icons/benchMemberPortrait01.png' },
  );
  await database.close();
  return {
    env,
    member,
    remove: async () => {
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The site's database, opened from the bench process (close it before the server starts). */
export function openSiteDatabase(site: BenchSite) {
  return openDatabase(
    site.env.DATABASE_URL
      ? { kind: 'postgres', url: site.env.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.join(site.env.DATA_DIR!, 'pgdata') },
  );
}

export interface RunningServer {
  url: string;
  /** Milliseconds from spawning the server to the first 200 from /healthz. */
  readyMs: number;
  stop(): Promise<void>;
}

/**
 * Starts the server as `npm start` runs it (`node scripts/start.mjs`), or another entry of the
 * bench's under tsx, and polls /healthz until it answers 200.
 * Its log goes to /dev/null: written, as in production, but not read.
 */
export async function startServer(
  env: Record<string, string>,
  port: number,
  entry?: string,
): Promise<RunningServer> {
  const startedAt = performance.now();
  // BENCH_CPU_PROFILE_DIR=dir: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`]
    : [];
  // BENCH_PERF_MAP=1: the server writes /tmp/perf-<pid>.map, so `perf record -g -p <pid>` names
  // its JavaScript functions; unlike V8's profile, perf also sees the kernel and other threads.
  const perfMap = process.env.BENCH_PERF_MAP
    ? { NODE_OPTIONS: '--perf-basic-prof-only-functions' }
    : {};
  const [command, args] = entry ? [TSX, [entry]] : [process.execPath, [...profile, START]];
  const child = spawn(command, args, {
    // Nothing of the bench's own environment (DATABASE_URL above all) reaches the server.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...perfMap,
      ...env,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr.trim()}`);
    if (performance.now() - startedAt > 120_000) {
      await stop();
      throw new Error('server did not answer /healthz within 120 s');
    }
    const status = await fetch(`${url}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return { url, readyMs: performance.now() - startedAt, stop };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
