import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { createPostgresDatabase, testDatabaseKind } from '../support/testDatabase';
import {
  expectDeliveredExactlyOnce,
  loggedDeliveries,
  ready,
  startServer,
  waitFor,
  type ServerProcess,
} from './letterDeliveryServers';
import { seedDueLetters } from './letterDeliverySeed';

const LETTERS = 6_000;
// Ports no process test takes, and others for each database's run of the suite: npm test runs
// the process tests and the API suite on PGlite and on PostgreSQL side by side.
const PORTS = testDatabaseKind() === 'postgres' ? [4291, 4292] : [4281, 4282];
const HOUR = 60 * 60 * 1000;
/** The letters are due in an hour; the servers' clocks run two hours ahead. */
const CLOCK_OFFSET_MS = 2 * HOUR;

// Several instances need PostgreSQL (PGlite belongs to one process): this runs whenever a
// PostgreSQL server is given, whichever database the rest of the API suite uses.
const serverUrl = process.env.TEST_DATABASE_URL;
const dataDirs: string[] = [];
const servers: ServerProcess[] = [];
let database: Database;
let drop = async (): Promise<void> => undefined;
let databaseUrl: string;

beforeAll(async () => {
  if (!serverUrl) return;
  const created = await createPostgresDatabase(serverUrl);
  databaseUrl = created.url;
  drop = created.drop;
  database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
  await migrate(database);
  await seedDueLetters(database.db, LETTERS, new Date(Date.now() + HOUR));
});

afterAll(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  await database?.close();
  await drop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!serverUrl)('two server instances on one PostgreSQL', () => {
  it(`deliver the same ${LETTERS} due letters exactly once`, { timeout: 90_000 }, async () => {
    for (const port of PORTS) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-letters-instance-'));
      dataDirs.push(dataDir);
      servers.push(
        startServer({
          DATA_DIR: dataDir,
          PORT: String(port),
          DATABASE_URL: databaseUrl,
          CLOCK_OFFSET_MS: String(CLOCK_OFFSET_MS),
        }),
      );
    }
    await Promise.all(servers.map(ready));
    await waitFor(
      'every letter',
      async () => {
        const result = (await database.db.execute(
          sql`select count(*)::int as n from time_capsule_letters where delivered_at is null`,
        )) as unknown as { rows: Array<{ n: number }> };
        return result.rows[0]!.n === 0;
      },
      60_000,
      100,
    );
    for (const server of servers) server.child.kill('SIGTERM');
    expect(await Promise.all(servers.map((server) => server.exited))).toEqual([0, 0]);

    await expectDeliveredExactlyOnce(database.db, LETTERS);
    // Each instance logs what it delivered: together exactly the letters, and both took part.
    const perInstance = servers.map(loggedDeliveries);
    expect(perInstance.reduce((a, b) => a + b, 0)).toBe(LETTERS);
    expect(perInstance.every((count) => count > 0)).toBe(true);
  });
});
