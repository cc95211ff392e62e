import type { AppContext } from '../context';
import { sweepUnusedUploads } from '../domain/uploads/uploads';
import { startPeriodicSweep } from './periodicSweep';

export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Hourly removal of uploads nothing claimed within a day or whose use is gone, with their files. */
export function startUploadSweep(ctx: AppContext, intervalMs = UPLOAD_SWEEP_INTERVAL_MS) {
  return startPeriodicSweep(ctx, 'unused uploads', intervalMs, () =>
    sweepUnusedUploads({ db: ctx.database.db, store: ctx.store, clock: ctx.clock }),
  );
}
