import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { adminQuery, databaseUrl, testDatabaseKind } from './testDatabaseTemplate';

export { testDatabaseKind } from './testDatabaseTemplate';

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database
 * created on TEST_DATABASE_URL's server and dropped again by `close`. Each is a copy of the
 * run's template (test/support/testDatabaseSetup.ts); without one it is migrated here.
 */
export async function createTestDatabase(): Promise<Database> {
  const template = inject('testDatabaseTemplate');
  if (testDatabaseKind() === 'pglite') {
    if (template?.kind === 'pglite') {
      const dataDirDump = new Blob([readFileSync(template.dumpFile)]);
      return openDatabase({ kind: 'pglite', dataDir: undefined, dataDirDump });
    }
    const database = await openDatabase({ kind: 'pglite', dataDir: undefined });
    await migrate(database);
    return database;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('API_TEST_DATABASE=postgres needs TEST_DATABASE_URL');
  const fromTemplate = template?.kind === 'postgres' ? template.name : undefined;
  const created = await createPostgresDatabase(serverUrl, fromTemplate);
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 5 });
  if (!fromTemplate) await migrate(database);
  return {
    ...database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}

/**
 * A new database on the PostgreSQL server of `serverUrl` (for tests that hand its URL to a
 * server process), empty or a copy of the database `template`; `drop` removes it again.
 */
export async function createPostgresDatabase(
  serverUrl: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `shinobu_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  return {
    url: databaseUrl(serverUrl, name),
    drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
