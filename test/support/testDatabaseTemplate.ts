import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';

/**
 * The migrated PGlite database every PGlite test database of a run is a copy of: a data
 * directory dump in a file. PostgreSQL has none: a copy of a template database cost as much
 * as creating a database and migrating it.
 */
export interface TestDatabaseTemplate {
  dumpFile: string;
}

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
    template: { dumpFile },
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
