import type { AppContext } from '../../context';
import { memoizePerOwner } from '../../lib/memoizePerOwner';
import type { AccountDeps } from '../../domain/accounts/accountDeps';
import { DEFAULT_LOGIN_THROTTLE, loginThrottle } from '../../domain/accounts/loginThrottle';
import {
  databaseThrottleStore,
  sharedThrottleStore,
  type ThrottleStore,
} from '../../domain/accounts/throttleStore';
import { mailUnlockLink } from '../../domain/accounts/unlockLinks';
import { japaneseTexts } from '../../pages/translations';

/**
 * The account rules' dependencies for one app: counters in Redis when REDIS_URL is set (so
 * instances share them; in the database while it does not answer), else in the database.
 */
export function createAccountDeps(ctx: AppContext): AccountDeps & { close(): Promise<void> } {
  const store: ThrottleStore = ctx.redis
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
    store: ctx.store,
    authSecret: ctx.config.authSecret,
    texts: japaneseTexts,
    throttle: loginThrottle(store, {
      ...DEFAULT_LOGIN_THROTTLE,
      attemptsPerClient: ctx.config.loginAttemptsPerClient,
      // Not awaited: the refused attempt answers at once; the mail follows.
      onLocked: (identifier, until) =>
        void mailUnlockLink(mailDeps, identifier, until).catch((error: unknown) =>
          ctx.log.error({ err: error }, 'unlock link mail failed'),
        ),
    }),
    log: ctx.log,
    close: () => store.close(),
  };
}

/**
 * The one set of account dependencies of an application: the account routes and the routes
 * of other areas that ask for a fresh proof share its throttle. The account routes close it.
 */
export const accountDepsOf = memoizePerOwner(createAccountDeps);
