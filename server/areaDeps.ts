import type { AppContext } from './context';
import type { AccountDeps } from './domain/accounts/accountDeps';
import { DEFAULT_LOGIN_THROTTLE, loginThrottle } from './domain/accounts/loginThrottle';
import {
  databaseThrottleStore,
  sharedThrottleStore,
  type ThrottleStore,
} from './domain/accounts/throttleStore';
import { mailUnlockLink } from './domain/accounts/unlockLinks';
import type { DataExportJobDeps } from './domain/dataExport/requests';
import type { DeathDeps } from './domain/deathDetection/deathDeps';
import { createPushSender } from './domain/deathDetection/push';
import type { ReleaseDeps } from './domain/deathDetection/release';
import { fileRevocationChecker } from './domain/deathDetection/revocation';
import { createSealer } from './domain/endingnote/sealing';
import type { EndingNoteDeps } from './domain/endingnote/sections';
import type { RestorationDeps } from './domain/deathDetection/restoration';
import type { MemorialDeps } from './domain/memorial/memorialDeps';
import type { SocialDeps } from './domain/social/socialDeps';
import type { TimecapsuleDeps } from './domain/timecapsule/timecapsuleDeps';
import type { UploadDeps } from './domain/uploads/uploads';
import { memoizePerOwner } from './lib/memoizePerOwner';
import type { OutboxDeps } from './mail/outbox';
import { japaneseTexts } from './lib/translations';
import { parseTrustAnchors } from './x509/certificates';

/*
 * Each area's dependencies, built from the app's context here and nowhere else, once per app:
 * routes, pages and jobs take theirs with `<area>DepsOf(ctx)`, and the domain only declares
 * what it needs (`<Area>Deps`).
 */

export const memorialDepsOf = memoizePerOwner((ctx: AppContext): MemorialDeps => ({
  db: ctx.database.db,
  store: ctx.store,
  clock: ctx.clock,
}));

export const uploadDepsOf = memoizePerOwner((ctx: AppContext): UploadDeps => ({
  db: ctx.database.db,
  store: ctx.store,
  clock: ctx.clock,
}));

export const socialDepsOf = memoizePerOwner((ctx: AppContext): SocialDeps => ({
  db: ctx.database.db,
  clock: ctx.clock,
  store: ctx.store,
}));

/** The letters: their photos, the mails they send and the limit on new non-member addresses. */
export const timecapsuleDepsOf = memoizePerOwner((ctx: AppContext): TimecapsuleDeps => ({
  db: ctx.database.db,
  clock: ctx.clock,
  store: ctx.store,
  publicUrl: ctx.config.publicUrl,
  texts: japaneseTexts,
  guestAddressesPerDay: ctx.config.letterNewGuestAddressesPerDay,
}));

/** The note's reads and writes: the database and the sealer of the section values. */
export const endingNoteDepsOf = memoizePerOwner((ctx: AppContext): EndingNoteDeps => ({
  db: ctx.database.db,
  sealer: createSealer(ctx.config.dataEncryptionKey),
}));

export const outboxDepsOf = memoizePerOwner((ctx: AppContext): OutboxDeps => ({
  db: ctx.database.db,
  mailer: ctx.mailer,
  clock: ctx.clock,
  publicUrl: ctx.config.publicUrl,
  metrics: ctx.metrics,
  log: ctx.log,
  retry: ctx.config.mailRetry,
}));

export const dataExportDepsOf = memoizePerOwner((ctx: AppContext): DataExportJobDeps => ({
  ...endingNoteDepsOf(ctx),
  store: ctx.store,
  clock: ctx.clock,
  texts: japaneseTexts,
  publicUrl: ctx.config.publicUrl,
}));

/** Trust anchors are parsed once per app. */
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

/** The release's dependencies: the death rules' own and the app's texts for its mails. */
export const releaseDepsOf = memoizePerOwner((ctx: AppContext): ReleaseDeps => ({
  ...deathDepsOf(ctx),
  texts: japaneseTexts,
}));

export const restorationDepsOf = memoizePerOwner((ctx: AppContext): RestorationDeps => ({
  db: ctx.database.db,
  clock: ctx.clock,
  publicUrl: ctx.config.publicUrl,
  texts: japaneseTexts,
}));

/**
 * The account rules' dependencies: counters in Redis when REDIS_URL is set (so instances share
 * them; in the database while it does not answer), else in the database. The account routes
 * and the routes of other areas that ask for a fresh proof share its throttle; the account
 * routes close it.
 */
export const accountDepsOf = memoizePerOwner(
  (ctx: AppContext): AccountDeps & { close(): Promise<void> } => {
    const counters: ThrottleStore = ctx.redis
      ? sharedThrottleStore(ctx.redis, `${ctx.config.redisPrefix}throttle:`, ctx.database.db)
      : databaseThrottleStore(ctx.database.db);
    const mailDeps = {
      db: ctx.database.db,
      clock: ctx.clock,
      store: ctx.store,
      publicUrl: ctx.config.publicUrl,
    };
    return {
      ...mailDeps,
      authSecret: ctx.config.authSecret,
      texts: japaneseTexts,
      throttle: loginThrottle(counters, {
        ...DEFAULT_LOGIN_THROTTLE,
        attemptsPerClient: ctx.config.loginAttemptsPerClient,
        // Not awaited: the refused attempt answers at once; the mail follows.
        onLocked: (identifier, until) =>
          void mailUnlockLink(mailDeps, identifier, until).catch((error: unknown) =>
            ctx.log.error({ err: error }, 'unlock link mail failed'),
          ),
      }),
      log: ctx.log,
      close: () => counters.close(),
    };
  },
);
