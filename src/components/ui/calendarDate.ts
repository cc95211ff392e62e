import { onFirstUse } from './onFirstUse';

const calendarDate = onFirstUse(
  () =>
    new Intl.DateTimeFormat('ja-JP', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    }),
);

/** A calendar date (YYYY-MM-DD, no time zone) as Japanese read it (year, month, day with their kanji). */
export function formatCalendarDate(value: string): string {
  const [year, month, day] = value.split('-').map(Number);
  if (!year || !month || !day) return value;
  return calendarDate().format(Date.UTC(year, month - 1, day));
}
