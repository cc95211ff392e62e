import type { AppContext } from '../context';

export interface Jobs {
  stop(): Promise<void>;
}

/**
 * Scheduled work that runs inside the server process (letter delivery, death-detection
 * sweeps, expiry). Each area adds its job here; every job claims its rows with
 * FOR UPDATE SKIP LOCKED so that any number of instances can run them.
 */
export function startJobs(ctx: AppContext): Jobs {
  void ctx;
  return { stop: async () => undefined };
}
