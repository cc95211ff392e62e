/**
 * Today's date in Japan (YYYY-MM-DD), the day birthdates are compared with. A module of its
 * own, without zod: the app frame's death-detection modals need it at start, and importing it
 * from `account.ts` brought the account schemas and zod (24 KB gzip) into a member's first load.
 */
export function tokyoToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}
