import type { AppContext } from '../context';

export interface PeriodicJob {
  /** One pass now, or the running one; never two at once in this process. */
  run(): Promise<void>;
  /** Stops the timer, tells a running pass to stop between its steps, and waits for it. */
  stop(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs`. Each pass is counted in the job metrics; a failed pass is
 * logged and the next one tries again. `work` answers what it did, logged when not 0.
 */
export function periodic(
  ctx: Pick<AppContext, 'log' | 'metrics'>,
  job: string,
  intervalMs: number,
  work: (stopping: AbortSignal) => Promise<object | number>,
): PeriodicJob {
  let running: Promise<void> | undefined;
  const stopping = new AbortController();
  const run = () =>
    (running ??= work(stopping.signal)
      .then((result) => {
        ctx.metrics.jobRuns.inc({ job });
        if (typeof result !== 'number' || result > 0) ctx.log.info({ job, result }, job);
      })
      .catch((error: unknown) => {
        ctx.metrics.jobRuns.inc({ job });
        ctx.metrics.jobFailures.inc({ job });
        ctx.log.error({ err: error, job }, `${job} failed; retrying on the next pass`);
      })
      .finally(() => {
        running = undefined;
      }));
  const timer = setInterval(() => void run(), intervalMs);
  return {
    run,
    stop: async () => {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
