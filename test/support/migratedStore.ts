import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';

/**
 * A migrated embedded store (PGlite's `pgdata/` folder) made once for a run, which the DATA_DIR
 * of a test that does not test a first start begins from: PGlite's initdb costs a process about
 * 4 CPU-seconds, a copy of the folder a tenth of one. A stopped store's folder is a whole copy
 * of it (docs/operations.md backs the embedded store up the same way).
 */
export async function createMigratedPgdata(): Promise<{ pgdata: string; remove(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shinobu-migrated-store-'));
  const pgdata = path.join(dir, 'pgdata');
  const database = await openDatabase({ kind: 'pglite', dataDir: pgdata });
  await migrate(database);
  await database.close();
  return { pgdata, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copies the migrated store `pgdata` into `dataDir`, where a server looks for its store. */
export function copyMigratedStore(pgdata: string, dataDir: string): void {
  cpSync(pgdata, path.join(dataDir, 'pgdata'), { recursive: true });
}

/** A new temporary DATA_DIR holding a copy of the migrated store `pgdata`. */
export function dataDirWithStore(pgdata: string, prefix: string): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  copyMigratedStore(pgdata, dataDir);
  return dataDir;
}
