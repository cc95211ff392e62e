import type { AppContext } from '../context';

/**
 * Runs `sweep` every `intervalMs`: it answers how many rows it removed, which is logged; a
 * failed pass is logged and the next one tries again.
 */
export function startPeriodicSweep(
  ctx: AppContext,
  what: string,
  intervalMs: number,
  sweep: () => Promise<number>,
) {
  const pass = async () => {
    try {
      const removed = await sweep();
      if (removed > 0) ctx.log.debug({ removed }, `${what} removed`);
    } catch (error) {
      ctx.log.error({ err: error }, `${what} sweep failed; retrying on the next pass`);
    }
  };
  const timer = setInterval(() => void pass(), intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
    },
  };
}
