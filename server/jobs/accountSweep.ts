import type { AppContext } from '../context';
import { sweepExpiredRegistrations } from '../domain/accounts/registration';
import { sweepExpiredAccountData } from '../domain/accounts/sweep';
import { periodic } from './periodic';

export const ACCOUNT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Hourly removal of expired throttle counters, mailed links, refresh tokens and registrations
 * nobody activated.
 */
export function startAccountSweep(ctx: AppContext, intervalMs = ACCOUNT_SWEEP_INTERVAL_MS) {
  return periodic(ctx, 'account sweep', intervalMs, async () => {
    const now = ctx.clock.now();
    const removed = await sweepExpiredAccountData(ctx.database.db, now);
    const deps = { db: ctx.database.db, store: ctx.store };
    return removed + (await sweepExpiredRegistrations(deps, now));
  });
}
