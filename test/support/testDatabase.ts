import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { createPostgresDatabase, testDatabaseKind } from './testDatabaseTemplate';

export { createPostgresDatabase, testDatabaseKind } from './testDatabaseTemplate';

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database created
 * on TEST_DATABASE_URL's server and dropped again by `close`. Each is a copy of the run's
 * template (test/support/testDatabaseSetup.ts) where there is one, else migrated here.
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
  const copyOf = template?.kind === 'postgres' ? template.name : undefined;
  const created = await createPostgresDatabase(serverUrl, 'shinobu_test', copyOf);
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 5 });
  if (!copyOf) await migrate(database);
  return {
    ...database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}
