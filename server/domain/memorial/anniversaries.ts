/**
 * Memorial anniversaries (年忌法要) from a date of death. Dates are calendar dates
 * ('YYYY-MM-DD', Japan) and the codes are stable: the Japanese labels live in the client's
 * translation file as `anniversary-<code>`.
 *
 * Counting (glossary): the day of death is day 1 for the early services, so 初七日 is death
 * + 6 days and 四十九日 death + 48 days; N回忌 falls N−1 years after the death, except 一周忌
 * (one year). A death on 29 February has its yearly services on 28 February in common years.
 */
export const ANNIVERSARY_RULES = [
  { code: 'shonanoka', days: 6 },
  { code: 'shijukunichi', days: 48 },
  { code: 'isshuki', years: 1 },
  { code: 'sankaiki', years: 2 },
  { code: 'nanakaiki', years: 6 },
  { code: 'jusankaiki', years: 12 },
  { code: 'junanakaiki', years: 16 },
  { code: 'nijusankaiki', years: 22 },
  { code: 'nijunanakaiki', years: 26 },
  { code: 'sanjusankaiki', years: 32 },
] as const satisfies readonly ({ code: string; days: number } | { code: string; years: number })[];

export type AnniversaryCode = (typeof ANNIVERSARY_RULES)[number]['code'];

export interface Anniversary {
  code: AnniversaryCode;
  date: string;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDate(value: string): { year: number; month: number; day: number } {
  const match = ISO_DATE.exec(value);
  if (!match) throw new RangeError(`not a calendar date: ${value}`);
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`not a calendar date: ${value}`);
  }
  return { year, month, day };
}

const format = (date: Date) => date.toISOString().slice(0, 10);

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** `date` plus whole days. */
export function addDays(date: string, days: number): string {
  const { year, month, day } = parseDate(date);
  return format(new Date(Date.UTC(year, month - 1, day + days)));
}

/** The same month and day `years` later; 29 February becomes 28 February in common years. */
export function addYears(date: string, years: number): string {
  const { year, month, day } = parseDate(date);
  const target = year + years;
  const targetDay = month === 2 && day === 29 && !isLeapYear(target) ? 28 : day;
  return format(new Date(Date.UTC(target, month - 1, targetDay)));
}

/** Every service from 初七日 to 三十三回忌, in date order. */
export function anniversariesOf(deathDate: string): Anniversary[] {
  return ANNIVERSARY_RULES.map((rule) => ({
    code: rule.code,
    date: 'days' in rule ? addDays(deathDate, rule.days) : addYears(deathDate, rule.years),
  }));
}

/** The services that fall within [from, to] (inclusive calendar dates). */
export function anniversariesBetween(deathDate: string, from: string, to: string): Anniversary[] {
  return anniversariesOf(deathDate).filter(({ date }) => date >= from && date <= to);
}
