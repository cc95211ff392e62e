import { readFile, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { runTool } from '../lib/runTool';

/**
 * A whole database in one file, by each kind's own tool: PGlite's dump of its data directory
 * (a gzipped tar, taken with nobody else writing it), or `pg_dump`'s custom format (one
 * consistent snapshot, taken while servers keep writing).
 */
export type DumpSource = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

export async function dumpDatabase(source: DumpSource, file: string): Promise<void> {
  if (source.kind === 'postgres') {
    await runTool('pg_dump', ['--format=custom', `--file=${file}`, source.url]);
    return;
  }
  const database = await PGlite.create(source.dataDir);
  try {
    const dump = await database.dumpDataDir('gzip');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await database.close();
  }
}

/** Rebuilds a database from `dumpDatabase`'s file into an empty data directory or database. */
export async function restoreDatabase(target: DumpSource, file: string): Promise<void> {
  if (target.kind === 'postgres') {
    // Owners and grants belong to the database the dump came from, not to this one.
    await runTool('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${target.url}`,
      file,
    ]);
    return;
  }
  const database = await PGlite.create(target.dataDir, {
    loadDataDir: new Blob([await readFile(file)]),
  });
  await database.close();
}
