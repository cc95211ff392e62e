import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { issueAccessToken } from '../../server/domain/accessTokens';
import { systemClock } from '../../server/lib/clock';
import { createPostgresDatabase, testDatabaseKind } from '../support/testDatabase';
import {
  AUTH_SECRET,
  expectDeliveredExactlyOnce,
  ready,
  startServer,
  waitFor,
  type ServerProcess,
} from './letterDeliveryServers';
import { seedDueLetters } from './letterDeliverySeed';

const LETTERS = 2_000;
// A port no process test takes, and another for each database: npm test runs the process
// tests and the API suite on PGlite and on PostgreSQL side by side.
const PORT = testDatabaseKind() === 'postgres' ? 4290 : 4280;
const HOUR = 60 * 60 * 1000;
/** The letters are due in an hour; the servers' clocks run two hours ahead. */
const CLOCK_OFFSET_MS = 2 * HOUR;

const kind = testDatabaseKind();
const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-letters-crash-'));
let databaseUrl: string | undefined;
let dropDatabase = async (): Promise<void> => undefined;
let readerId: string;
const servers: ServerProcess[] = [];

/** The embedded database of DATA_DIR or the test's PostgreSQL database, opened by the test. */
const openSeedDatabase = (): Promise<Database> =>
  databaseUrl
    ? openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 })
    : openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') });

function start(): ServerProcess {
  const server = startServer({
    DATA_DIR: dataDir,
    PORT: String(PORT),
    CLOCK_OFFSET_MS: String(CLOCK_OFFSET_MS),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  servers.push(server);
  return server;
}

/** How many letters the reader has received, asked of the running server over HTTP. */
async function receivedCount(): Promise<number> {
  const token = await issueAccessToken(readerId, AUTH_SECRET, systemClock(CLOCK_OFFSET_MS));
  const response = await fetch(
    `http://127.0.0.1:${PORT}/v1/time_capsule_letter/get_received_letters`,
    { headers: { authorization: `Bearer ${token}` } },
  ).catch(() => undefined);
  if (!response?.ok) return -1;
  return ((await response.json()) as unknown[]).length;
}

beforeAll(async () => {
  if (kind === 'postgres') {
    const created = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
  const database = await openSeedDatabase();
  await migrate(database);
  ({ readerId } = await seedDueLetters(database.db, LETTERS, new Date(Date.now() + HOUR)));
  await database.close();
});

afterAll(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`a server killed in the middle of delivering ${LETTERS} letters (${kind})`, () => {
  it('delivers every letter exactly once after the restart', { timeout: 90_000 }, async () => {
    const first = start();
    await ready(first);
    let seen = 0;
    await waitFor('the first deliveries', async () => {
      seen = await receivedCount();
      return seen > 0;
    });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    // Killed mid-way: some letters were out, others still due.
    expect(seen).toBeLessThan(LETTERS);

    // Restarted at once: the DATA_DIR lock knows its killed holder is gone.
    const second = start();
    await ready(second);
    await waitFor('every letter', async () => (await receivedCount()) === LETTERS);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const database = await openSeedDatabase();
    try {
      await expectDeliveredExactlyOnce(database.db, LETTERS);
    } finally {
      await database.close();
    }
  });
});
