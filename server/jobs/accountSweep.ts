import type { AppContext } from '../context';
import { sweepExpiredAccountData } from '../domain/accounts/sweep';

export const ACCOUNT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Hourly removal of expired throttle counters, mailed links and refresh tokens. */
export function startAccountSweep(ctx: AppContext, intervalMs = ACCOUNT_SWEEP_INTERVAL_MS) {
  const sweep = async () => {
    try {
      const removed = await sweepExpiredAccountData(ctx.database.db, ctx.clock.now());
      if (removed > 0) ctx.log.debug({ removed }, 'expired account data removed');
    } catch (error) {
      ctx.log.error({ err: error }, 'account sweep failed; retrying on the next pass');
    }
  };
  const timer = setInterval(() => void sweep(), intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
    },
  };
}
