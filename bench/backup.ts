/**
 * Backup and restore figures: a store of 1,000 members with their pages, 10,000 album photos
 * (each an image and a thumbnail file) and 1,000 letters, backed up by `npm run backup`'s own
 * function into one archive and restored into an empty store, in seconds each; on PGlite (a
 * DATA_DIR on disk) and, with DATABASE_URL, on PostgreSQL.
 * Run: `npm run bench -- --only backup`, or `npx tsx bench/backup.ts`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { StoreConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { restoreBackup, writeBackup } from '../server/operations/backup';
import { localStoreAt } from '../server/storage/copyObjects';
import { populateStore } from '../test/support/populatedStore';
import { createPostgresDatabase } from '../test/support/testDatabase';
import type { BenchModule, BenchOptions, BenchRow } from './types';

const SIZE = { members: 1_000, photos: 10_000, letters: 1_000 };
const LABEL = '1,000 members, 10,000 photos, 1,000 letters';

/** An empty store: a new DATA_DIR and, on PostgreSQL, a new database there. */
async function emptyStore(postgresServerUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shinobu-bench-backup-'));
  const created = postgresServerUrl ? await createPostgresDatabase(postgresServerUrl) : undefined;
  const config: StoreConfig = { dataDir, databaseUrl: created?.url, s3: undefined };
  return {
    config,
    remove: async () => {
      await created?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function measure(kind: string, postgresServerUrl: string | undefined, options: BenchOptions) {
  const source = await emptyStore(postgresServerUrl);
  const target = await emptyStore(postgresServerUrl);
  const archive = path.join(source.config.dataDir, 'backup.tar');
  try {
    const database = await openDatabase(
      source.config.databaseUrl
        ? { kind: 'postgres', url: source.config.databaseUrl }
        : { kind: 'pglite', dataDir: path.join(source.config.dataDir, 'pgdata') },
    );
    await migrate(database);
    await populateStore(database.db, localStoreAt(path.join(source.config.dataDir, 'files')), SIZE);
    await database.close();

    const backupStarted = performance.now();
    const manifest = await writeBackup(source.config, archive);
    const backupMs = performance.now() - backupStarted;
    const restoreStarted = performance.now();
    await restoreBackup(target.config, archive);
    const restoreMs = performance.now() - restoreStarted;
    const megabytes = (statSync(archive).size / 2 ** 20).toFixed(0);
    options.log(`backup ${kind}: ${backupMs.toFixed(0)} ms, restore ${restoreMs.toFixed(0)} ms`);
    const note = `${manifest.files} files, ${megabytes} MB archive`;
    return [
      { name: `backup, ${LABEL} (${kind})`, value: backupMs, unit: 'ms', note },
      { name: `restore, ${LABEL} (${kind})`, value: restoreMs, unit: 'ms', note },
    ] satisfies BenchRow[];
  } finally {
    await source.remove();
    await target.remove();
  }
}

export const backupBench: BenchModule = {
  title: 'backup',
  async run(options) {
    const rows = await measure('pglite', undefined, options);
    if (options.databaseUrl)
      rows.push(...(await measure('postgres', options.databaseUrl, options)));
    return rows;
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await backupBench.run({
    databaseUrl: process.env.DATABASE_URL || undefined,
    durationSeconds: 10,
    log: (line) => process.stderr.write(`bench: ${line}\n`),
  });
  for (const row of rows)
    process.stdout.write(`${row.name}\t${row.value?.toFixed(0)} ms\t${row.note ?? ''}\n`);
}
