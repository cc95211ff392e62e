import type { AppContext } from '../context';
import { sweepExpiredAccountData } from '../domain/accounts/sweep';
import { startPeriodicSweep } from './periodicSweep';

export const ACCOUNT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Hourly removal of expired throttle counters, mailed links and refresh tokens. */
export function startAccountSweep(ctx: AppContext, intervalMs = ACCOUNT_SWEEP_INTERVAL_MS) {
  return startPeriodicSweep(ctx, 'expired account data', intervalMs, () =>
    sweepExpiredAccountData(ctx.database.db, ctx.clock.now()),
  );
}
