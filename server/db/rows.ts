import type { SQL } from 'drizzle-orm';
import type { Db } from './database';

/**
 * The rows of a raw query as the driver gives them (PGlite and node-postgres both answer
 * `{ rows }`), without drizzle's per-field mapping: for lists of a thousand rows whose
 * columns are already what the answer needs, that mapping was a large share of the call.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}
