import { useT } from '../../i18n/useT';
import { elapsedSince, formatTokyoDateTime } from './elapsedTime';

/**
 * "3 minutes ago" (Fluent elapsed-*) for a UTC timestamp; the full Asia/Tokyo date and time is its tooltip and
 * machine-readable value. `now` is given by the caller so that lists share one clock.
 */
export function ElapsedTime({ at, now }: { at: string | Date; now: Date }) {
  const t = useT();
  const instant = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(instant.getTime())) return null;
  const { unit, count } = elapsedSince(instant, now);
  return (
    <time dateTime={instant.toISOString()} title={formatTokyoDateTime(instant)}>
      {t(`elapsed-${unit}`, { count })}
    </time>
  );
}
