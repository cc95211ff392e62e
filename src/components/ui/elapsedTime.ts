import { onFirstUse } from '../../lib/onFirstUse';

/** How long ago something happened, in the largest whole unit, up to days. */
export type ElapsedUnit = 'seconds' | 'minutes' | 'hours' | 'days';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Seconds under a minute, minutes under an hour, hours under a day, then days. */
export function elapsedSince(from: Date, now: Date): { unit: ElapsedUnit; count: number } {
  // A time slightly in the future (clock skew) reads as "0 seconds ago".
  const elapsed = Math.max(0, now.getTime() - from.getTime());
  if (elapsed < MINUTE) return { unit: 'seconds', count: Math.floor(elapsed / SECOND) };
  if (elapsed < HOUR) return { unit: 'minutes', count: Math.floor(elapsed / MINUTE) };
  if (elapsed < DAY) return { unit: 'hours', count: Math.floor(elapsed / HOUR) };
  return { unit: 'days', count: Math.floor(elapsed / DAY) };
}

const tokyoDateTime = onFirstUse(
  () =>
    new Intl.DateTimeFormat('ja-JP', {
      timeZone: 'Asia/Tokyo',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }),
);

/** A UTC instant as a Japanese date and time in Asia/Tokyo. */
export function formatTokyoDateTime(at: Date): string {
  return tokyoDateTime().format(at);
}
