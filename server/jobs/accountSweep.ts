import type { AppContext } from '../context';
import { sweepExpiredAccountData } from '../domain/accounts/sweep';
import { periodic } from './periodic';

export const ACCOUNT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Hourly removal of expired throttle counters, mailed links and refresh tokens. */
export function startAccountSweep(ctx: AppContext, intervalMs = ACCOUNT_SWEEP_INTERVAL_MS) {
  return periodic(ctx, 'account sweep', intervalMs, () =>
    sweepExpiredAccountData(ctx.database.db, ctx.clock.now()),
  );
}
