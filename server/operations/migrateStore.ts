import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ConfigError, type S3Config } from '../config';
import { COMMAND_LOCK, lockDataDir } from '../db/dataDirLock';
import { openDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrate';
import { queryRows } from '../db/rows';
import { copyTables, countRows } from '../db/tableCopy';
import { configuredStore, copyObjects, countObjects, localStoreAt } from '../storage/copyObjects';

export interface StoreMove {
  /** The embedded store: DATA_DIR with its pgdata/ and files/. */
  dataDir: string;
  /** The PostgreSQL database to move into: empty, or migrated with no rows. */
  databaseUrl: string;
  /** The bucket to move the files into; without it they stay in DATA_DIR/files. */
  s3: S3Config | undefined;
  dryRun: boolean;
}

export interface StoreMoveCounts {
  rows: Record<string, number>;
  files: number;
}

/**
 * Moves an embedded DATA_DIR's database to PostgreSQL and, when asked, its files to S3. Runs
 * under the DATA_DIR lock, so never while a server uses it; the DATA_DIR is left as it was.
 * A dry run counts what would move and changes nothing, neither here nor there.
 */
export async function moveStore(move: StoreMove): Promise<StoreMoveCounts> {
  const unlock = await lockDataDir(move.dataDir, COMMAND_LOCK);
  try {
    const pgdata = path.join(move.dataDir, 'pgdata');
    if (!existsSync(path.join(pgdata, 'PG_VERSION'))) {
      throw new ConfigError([`DATA_DIR: ${move.dataDir} holds no embedded database to move`]);
    }
    const source = await openDatabase({ kind: 'pglite', dataDir: pgdata });
    try {
      const target = await openTarget(move.databaseUrl);
      try {
        await refuseUnlessEmpty(target);
        const localFiles = localStoreAt(path.join(move.dataDir, 'files'));
        if (move.dryRun) {
          return { rows: await countRows(source.db), files: await countObjects(localFiles) };
        }
        // Both at the code's schema, as a start would leave them, so that every column matches.
        await migrate(source);
        await migrate(target);
        const rows = await copyTables(source, target);
        const files = move.s3
          ? await copyObjects(
              localFiles,
              await configuredStore({ dataDir: move.dataDir, s3: move.s3 }),
            )
          : await countObjects(localFiles);
        return { rows, files };
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  } finally {
    await unlock();
  }
}

async function openTarget(url: string): Promise<Database> {
  try {
    return await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  } catch (error) {
    throw new ConfigError([
      `--to: cannot connect to PostgreSQL at ${new URL(url).host} (${(error as Error).message})`,
    ]);
  }
}

/** A target that a server has already migrated is fine, as long as no row has arrived. */
async function refuseUnlessEmpty(target: Database): Promise<void> {
  const [tables] = await queryRows<{ count: number }>(
    target.db,
    sql`select count(*)::int as count from information_schema.tables
        where table_schema = 'public' and table_name <> 'schema_migrations'`,
  );
  if (tables!.count === 0) return;
  const filled = Object.entries(await countRows(target.db)).filter(([, count]) => count > 0);
  if (filled.length > 0) {
    throw new ConfigError([
      `--to: the database already holds data (${filled.map(([table]) => table).join(', ')}); move into an empty database`,
    ]);
  }
}
