import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ConfigError, type StoreConfig } from '../config';
import { COMMAND_LOCK, lockDataDir } from '../db/dataDirLock';
import { openDatabase } from '../db/database';
import { dumpDatabase, restoreDatabase, type DumpSource } from '../db/dump';
import { queryRows } from '../db/rows';
import { runTool } from '../lib/runTool';
import { configuredStore, copyObjects, localStoreAt } from '../storage/copyObjects';

/** What a backup archive holds, written into it as manifest.json. */
interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  database: DumpSource['kind'];
  files: number;
  secrets: boolean;
}

const FORMAT = 'shinobu-backup/1';
const DATABASE_FILE = { pglite: 'pgdata.tar.gz', postgres: 'database.pgdump' } as const;
const SECRETS_FILE = 'secrets.json';

function databaseOf(config: StoreConfig): DumpSource {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') };
}

/**
 * Writes one archive of the database and the stored files. On PostgreSQL servers may keep
 * running: the dump is one snapshot and files are never changed in place, only added or
 * removed. The embedded database is copied under the DATA_DIR lock, so never while a server
 * writes it (ConfigError names the running holder; every refusal is a ConfigError).
 */
export async function writeBackup(config: StoreConfig, file: string): Promise<Manifest> {
  const database = databaseOf(config);
  const unlock =
    database.kind === 'pglite' ? await lockDataDir(config.dataDir, COMMAND_LOCK) : undefined;
  const staging = await mkdtemp(path.join(tmpdir(), 'shinobu-backup-'));
  try {
    if (database.kind === 'pglite' && !existsSync(path.join(database.dataDir, 'PG_VERSION'))) {
      throw new ConfigError([`DATA_DIR: ${config.dataDir} holds no database to back up`]);
    }
    await dumpDatabase(database, path.join(staging, DATABASE_FILE[database.kind]));
    const files = await copyObjects(
      await configuredStore(config),
      localStoreAt(path.join(staging, 'files')),
    );
    // Generated secrets (no AUTH_SECRET / DATA_ENCRYPTION_KEY given) are what make the data readable.
    const secrets = existsSync(path.join(config.dataDir, SECRETS_FILE));
    if (secrets) {
      await copyFile(path.join(config.dataDir, SECRETS_FILE), path.join(staging, SECRETS_FILE));
    }
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      database: database.kind,
      files,
      secrets,
    };
    await writeFile(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await runTool('tar', [
      '--create',
      `--file=${path.resolve(file)}`,
      `--directory=${staging}`,
      '.',
    ]);
    return manifest;
  } finally {
    await unlock?.();
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Rebuilds an empty DATA_DIR, or an empty PostgreSQL database and store, from an archive of
 * `writeBackup`. The archive's database kind must be the configuration's: moving an embedded
 * store to PostgreSQL is `migrate-store`'s job.
 */
export async function restoreBackup(config: StoreConfig, file: string): Promise<Manifest> {
  const database = databaseOf(config);
  const unlock =
    database.kind === 'pglite' ? await lockDataDir(config.dataDir, COMMAND_LOCK) : undefined;
  const staging = await mkdtemp(path.join(tmpdir(), 'shinobu-restore-'));
  try {
    await runTool('tar', ['--extract', `--file=${path.resolve(file)}`, `--directory=${staging}`]);
    const manifest = JSON.parse(
      await readFile(path.join(staging, 'manifest.json'), 'utf8').catch(() => '{}'),
    ) as Manifest;
    if (manifest.format !== FORMAT) throw new ConfigError([`${file} is not a Shinobu backup`]);
    if (manifest.database !== database.kind) {
      throw new ConfigError([
        manifest.database === 'pglite'
          ? 'this backup holds an embedded database: restore it without DATABASE_URL into an empty DATA_DIR, then move it with npm run migrate-store'
          : 'this backup holds a PostgreSQL database: set DATABASE_URL to an empty database',
      ]);
    }
    await refuseUnlessEmpty(config, database);
    const target = await configuredStore(config);
    for await (const name of target.list()) {
      throw new ConfigError([
        `the file store already holds files (${name}); restore into an empty one`,
      ]);
    }
    await restoreDatabase(database, path.join(staging, DATABASE_FILE[database.kind]));
    await copyObjects(localStoreAt(path.join(staging, 'files')), target);
    const secretsTarget = path.join(config.dataDir, SECRETS_FILE);
    if (manifest.secrets && !existsSync(secretsTarget)) {
      await copyFile(path.join(staging, SECRETS_FILE), secretsTarget);
    }
    return manifest;
  } finally {
    await unlock?.();
    await rm(staging, { recursive: true, force: true });
  }
}

async function refuseUnlessEmpty(config: StoreConfig, database: DumpSource): Promise<void> {
  if (database.kind === 'pglite') {
    if (existsSync(database.dataDir)) {
      throw new ConfigError([
        `DATA_DIR: ${config.dataDir} already holds a database; restore into an empty DATA_DIR`,
      ]);
    }
    return;
  }
  const opened = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 1 });
  try {
    const [tables] = await queryRows<{ count: number }>(
      opened.db,
      sql`select count(*)::int as count from information_schema.tables where table_schema = 'public'`,
    );
    if (tables!.count > 0) {
      throw new ConfigError([
        'DATABASE_URL: the database already holds tables; restore into an empty database',
      ]);
    }
  } finally {
    await opened.close();
  }
}
