import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/paths';
import type { Database } from './database';

const MIGRATIONS_DIR = path.join(projectRoot, 'server', 'db', 'migrations');
// Any constant works; it only has to be the same for every instance of Shinobu.
const MIGRATION_LOCK_KEY = 7_410_221;

/**
 * Applies the SQL files of migrations/ in name order, each once and in its own transaction.
 * On PostgreSQL an advisory lock keeps several starting instances from migrating at once.
 */
export async function migrate(database: Database): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  return database.withSession(async (run) => {
    const lock = database.kind === 'postgres';
    if (lock) await run(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      await run(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const rows = await run('SELECT name FROM schema_migrations');
      const done = new Set(rows.map((row) => String(row.name)));
      const applied: string[] = [];
      for (const file of files.filter((name) => !done.has(name))) {
        const script = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
        try {
          await run(
            `BEGIN;\n${script}\n;\nINSERT INTO schema_migrations (name) VALUES ('${file}');\nCOMMIT;`,
          );
        } catch (error) {
          await run('ROLLBACK').catch(() => undefined);
          throw new Error(`migration ${file} failed: ${(error as Error).message}`, {
            cause: error,
          });
        }
        applied.push(file);
      }
      return applied;
    } finally {
      if (lock) await run(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
  });
}
