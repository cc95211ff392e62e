import type { Db } from '../../db/database';
import type { ObjectStore } from '../../storage/objectStore';
import type { UrlSignings } from '../../storage/viewUrls';
import type { Clock } from '../clock';

/** What memorial domain functions need: the database, the file store and the time. */
export interface MemorialDeps {
  db: Db;
  store: ObjectStore;
  clock: Clock;
  /** Set while a list answer is made to be kept (listAnswers.ts). */
  signings?: UrlSignings;
}
