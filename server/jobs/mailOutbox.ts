import type { AppContext } from '../context';
import { outboxDepsOf } from '../areaDeps';
import { sendAllPendingMails } from '../mail/outbox';
import { periodic, type PeriodicJob } from './periodic';

/** How often the outbox is looked at: a waiting member's mail leaves within this. */
export const MAIL_OUTBOX_INTERVAL_MS = 1_000;

/** Sends the outbox's due mails; failures wait their backoff (mail/outbox.ts). */
export function startMailOutbox(
  ctx: AppContext,
  intervalMs = MAIL_OUTBOX_INTERVAL_MS,
): PeriodicJob {
  const deps = outboxDepsOf(ctx);
  // A backlog (thousands of letters due at once) is sent batch by batch; stopping waits for
  // the batch in hand only, and the next start sends the rest.
  return periodic(ctx, 'mails sent', intervalMs, async (stopping) => {
    const result = await sendAllPendingMails(deps, stopping);
    return result.sent + result.failed === 0 ? 0 : result;
  });
}
