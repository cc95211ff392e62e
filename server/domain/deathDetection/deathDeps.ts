import type { X509Certificate } from 'node:crypto';
import type { DeathDetectionConfig } from '../../config';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { memoizePerOwner } from '../../lib/memoizePerOwner';
import type { Clock } from '../../clock';
import { parseTrustAnchors } from '../../x509/certificates';
import { createPushSender, type PushSender } from './push';
import { fileRevocationChecker, type RevocationChecker } from './revocation';

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

/** One DeathDeps per application context (trust anchors are parsed once). */
export const deathDepsOf = memoizePerOwner((ctx: AppContext): DeathDeps => {
  const settings = ctx.config.deathDetection;
  return {
    db: ctx.database.db,
    clock: ctx.clock,
    publicUrl: ctx.config.publicUrl,
    settings,
    trustAnchors: parseTrustAnchors(settings.identityTrustAnchorsPem),
    push: createPushSender(settings.pushWebhookUrl, ctx.log),
    revocation: fileRevocationChecker(settings.identityRevocationListFile),
    log: ctx.log,
  };
});
