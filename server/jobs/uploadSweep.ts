import type { AppContext } from '../context';
import { sweepUnclaimedUploads } from '../domain/uploads/uploads';

export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Hourly removal of uploads that nothing claimed within a day, with their files. */
export function startUploadSweep(ctx: AppContext, intervalMs = UPLOAD_SWEEP_INTERVAL_MS) {
  const sweep = async () => {
    try {
      const removed = await sweepUnclaimedUploads({
        db: ctx.database.db,
        store: ctx.store,
        clock: ctx.clock,
      });
      if (removed > 0) ctx.log.debug({ removed }, 'unclaimed uploads removed');
    } catch (error) {
      ctx.log.error({ err: error }, 'upload sweep failed; retrying on the next pass');
    }
  };
  const timer = setInterval(() => void sweep(), intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
    },
  };
}
