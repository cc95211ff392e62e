import type { Db } from '../../db/database';
import type { ObjectStore } from '../../storage/objectStore';
import type { Clock } from '../../lib/clock';
import type { LoginThrottle } from './loginThrottle';
import type { Translate } from '../../../contract/rules/endingnote';

/** What the account rules need from the outside world, each injectable. */
export interface AccountDeps {
  db: Db;
  clock: Clock;
  store: ObjectStore;
  publicUrl: string;
  authSecret: string;
  throttle: LoginThrottle;
  /** The app's Japanese texts by Fluent id, for the mails written from them. */
  texts: () => Promise<Translate>;
  /** Where work finished after the answer reports its failures. */
  log: { error(details: object, message: string): void };
}

/** Emails are compared and throttled trimmed and in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
