import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { createMigratedPgdata } from './migratedStore';

/**
 * The migrated database every test database of a run is a copy of: on PGlite a data
 * directory dump in a file, on PostgreSQL a database on TEST_DATABASE_URL's server.
 */
export type TestDatabaseTemplate =
  { kind: 'pglite'; dumpFile: string } | { kind: 'postgres'; name: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseTemplate: TestDatabaseTemplate | undefined;
  }
}

/** Which database the API suite runs on: PGlite by default, PostgreSQL when asked to. */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.API_TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * Migrates a PGlite database once for the whole run and answers its dump with the function
 * that removes it again: each test database then loads it instead of running initdb in WASM
 * and every migration itself.
 */
export async function createTestDatabaseTemplate(): Promise<{
  template: TestDatabaseTemplate;
  remove(): Promise<void>;
}> {
  const { pgdata, remove } = await createMigratedPgdata();
  const client = await PGlite.create(pgdata);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dumpFile = path.join(path.dirname(pgdata), 'template.tar');
  writeFileSync(dumpFile, new Uint8Array(await dump.arrayBuffer()));
  rmSync(pgdata, { recursive: true, force: true });
  return { template: { kind: 'pglite', dumpFile }, remove: async () => remove() };
}

/**
 * Migrates a database `shinobu_template_<random>` on the PostgreSQL server once for the whole
 * run (a name of its own, so that runs side by side never share one); each test database is
 * then `CREATE DATABASE … TEMPLATE` it. Its connection is closed before any copy: PostgreSQL
 * refuses a template someone is connected to.
 */
export async function createPostgresTemplate(serverUrl: string): Promise<{
  template: TestDatabaseTemplate;
  remove(): Promise<void>;
}> {
  const created = await createPostgresDatabase(serverUrl, 'shinobu_template');
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 1 });
  await migrate(database);
  await database.close();
  return { template: { kind: 'postgres', name: created.name }, remove: created.drop };
}

/**
 * A new database on the PostgreSQL server of `serverUrl` (for tests that hand its URL to a
 * server process), empty or a copy of the database `template`; `drop` removes it again.
 */
export async function createPostgresDatabase(
  serverUrl: string,
  prefix = 'shinobu_test',
  template?: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
