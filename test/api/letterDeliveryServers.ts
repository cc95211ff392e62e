import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../server/db/database';
import { queryRows } from '../../server/db/rows';

/**
 * Real Shinobu processes for the delivery tests that kill and multiply servers, stopped by
 * signal, their JSON log lines collected. Started as `node scripts/start.mjs` (what `npm start`
 * runs) so that the signal reaches the server itself: npm puts a parent process in front of it
 * that a SIGKILL would leave orphaned.
 */
export interface ServerProcess {
  child: ChildProcess;
  /** Parsed log lines so far. */
  logs: Array<Record<string, unknown>>;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
}

export const AUTH_SECRET = randomBytes(32).toString('base64');

export function startServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      SHINOBU_SKIP_BUILD: 'true',
      LOG_LEVEL: 'info',
      AUTH_SECRET,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // Not a log line (npx notices); irrelevant here.
      }
    }
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | string | null>((resolve) => {
    child.on('exit', (code, signal) => {
      if (code !== 0 && code !== null && errors) process.stderr.write(errors);
      resolve(signal ?? code);
    });
  });
  return { child, logs, exited };
}

/** Polls `check` (real processes run on real time) until it answers true or time runs out. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 25_000,
  pollMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Resolves once the process listens (its "ready" log line). */
export const ready = (server: ServerProcess) =>
  waitFor(
    'the server to start',
    () => server.logs.some((line) => line.readyInMs !== undefined),
    40_000,
  );

/** Letters the process says it delivered (sum of its "letters delivered" log lines). */
export const loggedDeliveries = (server: ServerProcess) =>
  server.logs.reduce(
    (sum, line) =>
      sum +
      (line.job === 'time-capsule letters delivered' && typeof line.result === 'number'
        ? line.result
        : 0),
    0,
  );

/** Every letter delivered, each exactly once, with one mail and one notification per delivery. */
export async function expectDeliveredExactlyOnce(db: Db, count: number): Promise<void> {
  const result = await queryRows<Record<string, number>>(
    db,
    sql`
    select
      (select count(*)::int from time_capsule_letters where delivered_at is null) as undelivered,
      (select count(*)::int from letter_deliveries) as deliveries,
      (select count(distinct (letter_id, recipient_id))::int from letter_deliveries) as distinct_deliveries,
      (select count(*)::int from mail_outbox where kind = 'letter') as mails,
      (select count(*)::int from notifications where kind = 'letter_delivered') as notices`,
  );
  expect(result[0]).toEqual({
    undelivered: 0,
    deliveries: count,
    distinct_deliveries: count,
    mails: count,
    notices: count,
  });
}
