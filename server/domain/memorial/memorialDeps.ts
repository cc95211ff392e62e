import type { Db } from '../../db/database';
import type { ObjectStore } from '../../storage/objectStore';
import type { Clock } from '../../lib/clock';

/** What memorial domain functions need: the database, the file store and the time. */
export interface MemorialDeps {
  db: Db;
  store: ObjectStore;
  clock: Clock;
}
