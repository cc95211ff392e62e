import type { AppContext } from '../context';
import { memorialDepsOf, releaseDepsOf } from '../areaDeps';
import { deleteDueAccounts } from '../domain/deathDetection/afterDeath';
import { releaseDueCases } from '../domain/deathDetection/release';
import { runSuspicionSweep } from '../domain/deathDetection/sweep';
import { periodic } from './periodic';

/** Grace periods are checked often (an index probe); the suspicion sweep hourly. */
export const DEATH_RELEASE_INTERVAL_MS = 2_000;
export const SUSPICION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface DeathDetectionJob {
  /** One release pass with its due deletions (tests call it directly). */
  release(): Promise<void>;
  /** One suspicion sweep (tests and the bench call it directly). */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Releases cases whose grace period is over and runs the suspicion sweep. Passes of one kind
 * never overlap in a process; instances share the work through SKIP LOCKED claims.
 */
export function startDeathDetection(
  ctx: AppContext,
  intervals = { releaseMs: DEATH_RELEASE_INTERVAL_MS, sweepMs: SUSPICION_SWEEP_INTERVAL_MS },
): DeathDetectionJob {
  const deps = releaseDepsOf(ctx);
  // The accounts whose chosen day of deletion has come go in the same pass (an index probe).
  const release = periodic(
    ctx,
    'death cases released',
    intervals.releaseMs,
    async () =>
      (await releaseDueCases(deps)) + (await deleteDueAccounts(deps, memorialDepsOf(ctx))),
  );
  const sweep = periodic(ctx, 'suspicion sweep', intervals.sweepMs, () => runSuspicionSweep(deps));
  return {
    release: release.run,
    sweep: sweep.run,
    stop: async () => void (await Promise.all([release.stop(), sweep.stop()])),
  };
}
