/** Japan keeps UTC+9 all year (no summer time since 1951). */
const JST_OFFSET_MS = 9 * 60 * 60 * 1000;

/**
 * Today's date in Japan (YYYY-MM-DD), the day birthdates are compared with. A module of its
 * own, without zod: the app frame's death-detection modals need it at start, and importing it
 * from `account.ts` would bring the account schemas and zod into a member's first load.
 * The UTC date nine hours on, not Intl.DateTimeFormat: a page's first one loads the locale's
 * and the time zone's data in one long task, and the member frame asks this at start.
 */
export function tokyoToday(now: Date): string {
  return new Date(now.getTime() + JST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The year in Japan: the footer's copyright year, and part of a kept server render's key. */
export function tokyoYear(now: Date): number {
  return Number(tokyoToday(now).slice(0, 4));
}
