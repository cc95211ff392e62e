import type { X509Certificate } from 'node:crypto';
import type { DeathDetectionConfig } from '../../config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { PushSender } from './push';
import type { RevocationChecker } from './revocation';

/** What the death-detection rules need from the outside world, each injectable. */
export interface DeathDeps {
  db: Db;
  clock: Clock;
  publicUrl: string;
  settings: DeathDetectionConfig;
  trustAnchors: X509Certificate[];
  push: PushSender;
  revocation: RevocationChecker;
  log: {
    info(details: object, message: string): void;
    error(details: object, message: string): void;
  };
}
