import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';

/**
 * The migrated database every test database of a run is a copy of: a PGlite data directory
 * dump in a file, or a template database on TEST_DATABASE_URL's server.
 */
export type TestDatabaseTemplate =
  { kind: 'pglite'; dumpFile: string } | { kind: 'postgres'; name: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseTemplate: TestDatabaseTemplate;
  }
}

/** Which database the API suite runs on: PGlite by default, PostgreSQL when asked to. */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.API_TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

/** The URL of the database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the server's maintenance database, on a connection of its own. */
export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * Migrates a new database once for the whole run and answers it with the function that
 * removes it again. Each test database then starts as its copy instead of running initdb
 * (PGlite) and every migration itself.
 */
export async function createTestDatabaseTemplate(): Promise<{
  template: TestDatabaseTemplate;
  remove(): Promise<void>;
}> {
  if (testDatabaseKind() === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'shinobu-test-template-'));
    const dataDir = path.join(dir, 'pgdata');
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await migrate(database);
    await database.close();
    const client = await PGlite.create(dataDir);
    const dump = await client.dumpDataDir('none');
    await client.close();
    const dumpFile = path.join(dir, 'template.tar');
    writeFileSync(dumpFile, new Uint8Array(await dump.arrayBuffer()));
    rmSync(dataDir, { recursive: true, force: true });
    return {
      template: { kind: 'pglite', dumpFile },
      remove: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('API_TEST_DATABASE=postgres needs TEST_DATABASE_URL');
  const name = `shinobu_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const remove = () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    // Closed before any copy: CREATE DATABASE ... TEMPLATE refuses a template in use.
    const database = await openDatabase({
      kind: 'postgres',
      url: databaseUrl(serverUrl, name),
      poolSize: 1,
    });
    try {
      await migrate(database);
    } finally {
      await database.close();
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { template: { kind: 'postgres', name }, remove };
}
