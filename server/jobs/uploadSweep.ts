import type { AppContext } from '../context';
import { sweepUnclaimedUploads } from '../domain/uploads/uploads';
import { startPeriodicSweep } from './periodicSweep';

export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Hourly removal of uploads that nothing claimed within a day, with their files. */
export function startUploadSweep(ctx: AppContext, intervalMs = UPLOAD_SWEEP_INTERVAL_MS) {
  return startPeriodicSweep(ctx, 'unclaimed uploads', intervalMs, () =>
    sweepUnclaimedUploads({ db: ctx.database.db, store: ctx.store, clock: ctx.clock }),
  );
}
