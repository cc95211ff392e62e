import type { AppContext } from '../context';
import { timecapsuleDepsOf } from '../areaDeps';
import { deliverAllDueLetters } from '../domain/timecapsule/delivery';
import { periodic } from './periodic';

/** How often the loop looks for due letters. */
export const LETTER_DELIVERY_INTERVAL_MS = 2_000;

export interface LetterDeliveryJob {
  /** One pass: deliver every due letter (their mails go to the outbox). Tests call it. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The time-capsule delivery loop of this process. "Now" is ctx.clock; passes never overlap in
 * one process, and any number of processes may run it (claims use SKIP LOCKED).
 */
export function startLetterDelivery(
  ctx: AppContext,
  intervalMs = LETTER_DELIVERY_INTERVAL_MS,
): LetterDeliveryJob {
  const deps = timecapsuleDepsOf(ctx);
  const job = periodic(ctx, 'time-capsule letters delivered', intervalMs, () =>
    deliverAllDueLetters(deps),
  );
  return { tick: job.run, stop: job.stop };
}
