/**
 * PostgreSQL going away under write traffic: six members add history entries to a production
 * server whose database is behind a relay, the relay drops everything for 10 s, then comes
 * back. Rows: the answers during the outage by status, and the time from the database's
 * return to the first success. Needs PostgreSQL: without DATABASE_URL the rows say so.
 * Run: `DATABASE_URL=postgres://… npm run bench -- --only "database faults"`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { openDatabase } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { historyEntries } from '../server/db/schema';
import { systemClock } from '../server/lib/clock';
import { startReadyServer, stopServer } from '../test/process/serverProcess';
import { startDatabaseProxy } from '../test/support/databaseProxy';
import { startHistoryWriters, type WriteAnswer } from '../test/support/historyWriters';
import { createMember } from '../test/support/members';
import { createPostgresDatabase } from '../test/support/testDatabase';
import type { BenchModule, BenchRow } from './types';

const PORTS = { proxy: 4262, server: 4263 };
const WRITERS = 6;
const OUTAGE_MS = 10_000;
/** The first success after the database returns should come within this. */
const RECOVERY_TARGET_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const databaseFaultsBench: BenchModule = {
  title: 'database faults',
  async run(options) {
    const outageRow = 'database outage of 10 s under writes';
    if (!options.databaseUrl) {
      return [
        {
          name: outageRow,
          value: undefined,
          unit: 'count',
          note: 'needs DATABASE_URL (PostgreSQL)',
        },
      ];
    }
    const scratch = await createPostgresDatabase(options.databaseUrl, 'shinobu_faults');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-bench-db-faults-'));
    const proxy = await startDatabaseProxy(scratch.url, PORTS.proxy);
    try {
      const authSecret = randomBytes(32).toString('base64');
      const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 2 });
      await migrate(database);
      const members = [];
      for (let i = 0; i < WRITERS; i++) {
        members.push(
          await createMember({ ctx: { database }, clock: systemClock(), config: { authSecret } }),
        );
      }
      const server = await startReadyServer({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        PORT: String(PORTS.server),
        PUBLIC_URL: `http://127.0.0.1:${PORTS.server}`,
        DATABASE_URL: proxy.url,
        AUTH_SECRET: authSecret,
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      });
      try {
        const writers = startHistoryWriters(
          server.baseUrl,
          members,
          () => server.child.exitCode === null,
        );
        await writers.succeeded(WRITERS * 3);
        await proxy.cut();
        const cutAt = performance.now();
        await sleep(OUTAGE_MS);
        await proxy.restore();
        const backAt = performance.now();
        await writers.succeeded(WRITERS);
        await writers.stop();
        const during = writers.answers.filter((answer) => answer.at >= cutAt && answer.at < backAt);
        const firstSuccess = writers.answers.find(
          (answer) => answer.at >= backAt && answer.status < 300,
        );
        const recoveryMs = firstSuccess ? Math.round(firstSuccess.at - backAt) : undefined;
        const longestMs = Math.round(Math.max(...during.map((answer) => answer.tookMs)));
        options.log(
          `outage: ${during.length} answers, first success ${recoveryMs} ms after the return`,
        );
        const stored = await database.db
          .select({ body: historyEntries.body })
          .from(historyEntries)
          .where(inArray(historyEntries.body, writers.acknowledged));
        const lost = writers.acknowledged.length - new Set(stored.map((row) => row.body)).size;
        await database.close();
        return [
          ...byStatus(during, outageRow),
          {
            name: 'first success after the database returns',
            value: recoveryMs,
            unit: 'ms',
            target: `< ${RECOVERY_TARGET_MS}`,
            met: recoveryMs !== undefined && recoveryMs < RECOVERY_TARGET_MS,
            note: `${WRITERS} writing clients; process up after: ${server.child.exitCode === null}`,
          },
          {
            name: 'longest answer during the outage',
            value: longestMs,
            unit: 'ms',
            note: 'bounded by the query and connect timeouts, not by the outage',
          },
          {
            name: 'acknowledged writes lost in the outage',
            value: lost,
            unit: 'count',
            target: '0',
            met: lost === 0,
            note: `${writers.acknowledged.length} acknowledged`,
          },
        ];
      } finally {
        await stopServer(server);
      }
    } finally {
      await proxy.close();
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

/** One row per status answered (0: no answer at all), 503s first; any but 2xx and 503 is a miss. */
function byStatus(answers: WriteAnswer[], name: string): BenchRow[] {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  const statuses = [...counts.keys()].sort((a, b) => (a === 503 ? -1 : b === 503 ? 1 : a - b));
  return statuses.map((status) => ({
    name: `${name}: answers ${status === 0 ? 'not answered' : status}`,
    value: counts.get(status),
    unit: 'count',
    ...(status === 503 || (status >= 200 && status < 300) ? {} : { target: '0', met: false }),
  }));
}
