import { onFirstUse } from '../../lib/onFirstUse';

/** How dates are written: the Western calendar (2025) or the Japanese era (Reiwa 7). */
export type CalendarChoice = 'western' | 'japanese';

/** The member's choice, made on my page and kept on this device. */
export const CALENDAR_STORAGE_KEY = 'shinobu.calendar';

export function readCalendarChoice(): CalendarChoice {
  return globalThis.localStorage?.getItem(CALENDAR_STORAGE_KEY) === 'japanese'
    ? 'japanese'
    : 'western';
}

export function storeCalendarChoice(choice: CalendarChoice): void {
  localStorage.setItem(CALENDAR_STORAGE_KEY, choice);
}

const DATE_PARTS = { year: 'numeric', month: 'long', day: 'numeric' } as const;
const DATE_TIME_PARTS = { ...DATE_PARTS, hour: '2-digit', minute: '2-digit' } as const;

/** The Japanese era's formatter comes from Intl (era names and first years included). */
const formatters = {
  western: onFirstUse(() => new Intl.DateTimeFormat('ja-JP', { ...DATE_PARTS, timeZone: 'UTC' })),
  japanese: onFirstUse(
    () => new Intl.DateTimeFormat('ja-JP-u-ca-japanese', { ...DATE_PARTS, timeZone: 'UTC' }),
  ),
  westernTokyo: onFirstUse(
    () => new Intl.DateTimeFormat('ja-JP', { ...DATE_PARTS, timeZone: 'Asia/Tokyo' }),
  ),
  japaneseTokyo: onFirstUse(
    () => new Intl.DateTimeFormat('ja-JP-u-ca-japanese', { ...DATE_PARTS, timeZone: 'Asia/Tokyo' }),
  ),
  westernTokyoTime: onFirstUse(
    () => new Intl.DateTimeFormat('ja-JP', { ...DATE_TIME_PARTS, timeZone: 'Asia/Tokyo' }),
  ),
  japaneseTokyoTime: onFirstUse(
    () =>
      new Intl.DateTimeFormat('ja-JP-u-ca-japanese', {
        ...DATE_TIME_PARTS,
        timeZone: 'Asia/Tokyo',
      }),
  ),
};

/**
 * A calendar date (YYYY-MM-DD, no time zone) as Japanese read it (year, month, day with their
 * kanji), in the member's calendar unless one is given.
 */
export function formatCalendarDate(
  value: string,
  calendar: CalendarChoice = readCalendarChoice(),
): string {
  const [year, month, day] = value.split('-').map(Number);
  if (!year || !month || !day) return value;
  return formatters[calendar]().format(Date.UTC(year, month - 1, day));
}

/** A UTC instant's date in Asia/Tokyo, in the member's calendar unless one is given. */
export function formatTokyoInstantDate(
  at: Date,
  calendar: CalendarChoice = readCalendarChoice(),
): string {
  return formatters[calendar === 'japanese' ? 'japaneseTokyo' : 'westernTokyo']().format(at);
}

/** A UTC instant's date and time in Asia/Tokyo, in the member's calendar unless one is given. */
export function formatTokyoInstantDateTime(
  at: Date,
  calendar: CalendarChoice = readCalendarChoice(),
): string {
  return formatters[calendar === 'japanese' ? 'japaneseTokyoTime' : 'westernTokyoTime']().format(
    at,
  );
}
