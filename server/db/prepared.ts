import { memoizePerOwner } from '../lib/memoizePerOwner';
import type { Db } from './database';

/**
 * A query of a hot path, built and named once per database rather than on every call:
 * a named statement is parsed once per PostgreSQL connection. Values go in as
 * `sql.placeholder(...)` and out through `.execute({...})`. Also keeps anything else built on
 * one database, such as a key batcher (`keyBatcher.ts`).
 */
export function preparedPerDatabase<Query>(prepare: (db: Db) => Query): (db: Db) => Query {
  return memoizePerOwner(prepare);
}
