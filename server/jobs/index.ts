import type { AppContext } from '../context';
import { startAccountSweep } from './accountSweep';
import { startDataExports } from './dataExport';
import { startDeathDetection } from './deathDetection';
import { startLetterDelivery } from './letterDelivery';
import { startUploadSweep } from './uploadSweep';
import { startMailOutbox } from './mailOutbox';

export interface Jobs {
  stop(): Promise<void>;
}

/**
 * Scheduled work that runs inside the server process (letter delivery, the mail outbox,
 * death-detection sweeps, expiry). Each area adds its job here; every job claims its rows with
 * FOR UPDATE SKIP LOCKED so that any number of instances can run them.
 */
export function startJobs(ctx: AppContext): Jobs {
  const jobs: Jobs[] = [
    startLetterDelivery(ctx),
    startMailOutbox(ctx),
    startAccountSweep(ctx),
    startDeathDetection(ctx),
    startUploadSweep(ctx),
    startDataExports(ctx),
  ];
  return { stop: async () => void (await Promise.all(jobs.map((job) => job.stop()))) };
}
