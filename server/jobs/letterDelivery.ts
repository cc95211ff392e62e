import type { AppContext } from '../context';
import { deliverAllDueLetters } from '../domain/timecapsule/delivery';
import { sendPendingLetterMails } from '../domain/timecapsule/outbox';

/** How often the loop looks for due letters and pending mails. */
export const LETTER_DELIVERY_INTERVAL_MS = 2_000;

export interface LetterDeliveryJob {
  /** One pass: deliver every due letter, then send the pending mails. Tests call it directly. */
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
  const { database, clock, mailer, log, config } = ctx;
  let running: Promise<void> | undefined;

  const pass = async () => {
    try {
      const delivered = await deliverAllDueLetters(database.db, clock, {
        publicUrl: config.publicUrl,
      });
      if (delivered > 0) log.info({ delivered }, 'time-capsule letters delivered');
      const mails = await sendPendingLetterMails(database.db, mailer, clock);
      if (mails.failed > 0) log.warn(mails, 'some time-capsule mails failed; they will be retried');
    } catch (error) {
      log.error({ err: error }, 'time-capsule delivery pass failed; retrying on the next pass');
    }
  };
  const tick = () => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => void tick(), intervalMs);
  return {
    tick,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
