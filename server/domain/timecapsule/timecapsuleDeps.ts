import type { Translate } from '../../../contract/rules/endingnote';
import type { Clock } from '../../lib/clock';
import type { Db } from '../../db/database';
import type { ObjectStore } from '../../storage/objectStore';

/**
 * What the time capsule's functions need. A function that only touches the database declares
 * `Pick<TimecapsuleDeps, 'db'>`, so another area (or a transaction, `{ db: tx }`) can call it.
 */
export interface TimecapsuleDeps {
  db: Db;
  clock: Clock;
  /** The letters' photos. */
  store: ObjectStore;
  /** Where links in the mails point (config.publicUrl). */
  publicUrl: string;
  /** The app's Japanese texts by Fluent id: the mails and the refusals are written from them. */
  texts: () => Promise<Translate>;
  /** How many new non-member addresses a member may give letters to in a day. */
  guestAddressesPerDay: number;
}
