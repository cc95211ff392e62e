import type { AppContext } from '../../context';
import type { AccountDeps } from '../../domain/accounts/deps';
import { DEFAULT_LOGIN_THROTTLE, loginThrottle } from '../../domain/accounts/loginThrottle';
import {
  databaseThrottleStore,
  redisThrottleStore,
  type ThrottleStore,
} from '../../domain/accounts/throttleStore';

/**
 * The account rules' dependencies for one app: counters in Redis when REDIS_URL is set (so
 * instances share them), else in the database. `close` releases the Redis connection.
 */
export function createAccountDeps(ctx: AppContext): AccountDeps & { close(): Promise<void> } {
  const store: ThrottleStore = ctx.config.redisUrl
    ? redisThrottleStore(ctx.config.redisUrl)
    : databaseThrottleStore(ctx.database.db);
  return {
    db: ctx.database.db,
    clock: ctx.clock,
    store: ctx.store,
    publicUrl: ctx.config.publicUrl,
    authSecret: ctx.config.authSecret,
    throttle: loginThrottle(store, {
      ...DEFAULT_LOGIN_THROTTLE,
      attemptsPerClient: ctx.config.loginAttemptsPerClient,
    }),
    log: ctx.log,
    close: () => store.close(),
  };
}
