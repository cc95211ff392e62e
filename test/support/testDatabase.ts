import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { testDatabaseKind } from './testDatabaseTemplate';

export { testDatabaseKind } from './testDatabaseTemplate';

/**
 * A fresh, migrated database for one test file: an in-memory PGlite (a copy of the run's
 * template, test/support/testDatabaseSetup.ts, where there is one), or a new database
 * created on TEST_DATABASE_URL's server, migrated, and dropped again by `close`.
 */
export async function createTestDatabase(): Promise<Database> {
  if (testDatabaseKind() === 'pglite') {
    const template = inject('testDatabaseTemplate');
    if (template) {
      const dataDirDump = new Blob([readFileSync(template.dumpFile)]);
      return openDatabase({ kind: 'pglite', dataDir: undefined, dataDirDump });
    }
    const database = await openDatabase({ kind: 'pglite', dataDir: undefined });
    await migrate(database);
    return database;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('API_TEST_DATABASE=postgres needs TEST_DATABASE_URL');
  const created = await createPostgresDatabase(serverUrl);
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 5 });
  await migrate(database);
  return {
    ...database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}

/**
 * A new, empty database on the PostgreSQL server of `serverUrl` (for tests that hand its URL
 * to a server process); `drop` removes it again.
 */
export async function createPostgresDatabase(
  serverUrl: string,
  prefix = 'shinobu_test',
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
