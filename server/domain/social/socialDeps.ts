import type { Clock } from '../../lib/clock';
import type { Db } from '../../db/database';
import type { ObjectStore } from '../../storage/objectStore';

/**
 * What the social area's functions need: the database, the time and the file store (the
 * members' icons). A function that needs less declares a `Pick` of it.
 */
export interface SocialDeps {
  db: Db;
  clock: Clock;
  store: ObjectStore;
}
