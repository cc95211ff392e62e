import { formatCalendarDate, formatTokyoInstantDate } from '../../components/ui/calendarDate';

/** A UTC instant or a `YYYY-MM-DD` date as the Japanese calendar date in Asia/Tokyo. */
export function formatTokyoDate(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? formatCalendarDate(value)
    : formatTokyoInstantDate(new Date(value));
}
