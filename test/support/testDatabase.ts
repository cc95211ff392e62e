import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import {
  createPgliteClient,
  openDatabase,
  pgliteDatabase,
  type Database,
} from '../../server/db/database';
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
    if (template?.kind === 'pglite') return pgliteDatabase(await leasedPglite(template.dumpFile));
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

/**
 * The embedded databases this worker has opened and no test file holds, each emptied back to
 * the template's state: opening one from the template costs about half a CPU-second, emptying
 * one a tenth of that. A worker runs its files one at a time, so files take turns with them.
 */
const idlePglite: PGlite[] = [];
let pgliteOpened = 0;

/** How many embedded databases this worker has opened (the rest were handed on emptied). */
export const pgliteDatabasesOpened = () => pgliteOpened;

/**
 * A PGlite client for one holder: an idle one or a new copy of the template. Closing it ends
 * the holder's use — every later call fails as on a closed PGlite, its listeners are
 * removed — and gives the client back emptied once the calls made before have run.
 */
async function leasedPglite(dumpFile: string): Promise<PGlite> {
  let client = idlePglite.pop();
  if (!client) {
    client = await createPgliteClient(undefined, new Blob([readFileSync(dumpFile)]));
    pgliteOpened += 1;
  }
  let released = false;
  const stopListening: (() => Promise<void>)[] = [];
  const release = async () => {
    if (released) return;
    released = true;
    for (const stop of stopListening.splice(0)) await stop();
    await giveBack(client);
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === 'closed') return released;
      if (property === 'close') return release;
      // PGlite keeps its state in private fields: its methods run on the client itself.
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (released) return Promise.reject(new Error('PGlite is closed'));
        const answer: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (property !== 'listen') return answer;
        return (answer as Promise<() => Promise<void>>).then((stop) => {
          stopListening.push(stop);
          return stop;
        });
      };
    },
  });
}

/** Empties every table but the migrations' record; a client that cannot be emptied is closed. */
async function giveBack(client: PGlite): Promise<void> {
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables
        WHERE schemaname = 'public' AND tablename <> 'schema_migrations'`,
    );
    await client.exec(
      `UNLISTEN *; TRUNCATE ${rows.map((row) => row.name).join(', ')} RESTART IDENTITY CASCADE`,
    );
    idlePglite.push(client);
  } catch {
    await client.close().catch(() => undefined);
  }
}
