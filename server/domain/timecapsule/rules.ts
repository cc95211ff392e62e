import type { DeliveryRule } from '../../db/schema';
import { JAPAN_OFFSET_MS } from '../../../contract/rules/timecapsule';

/**
 * A letter delivered more than this many minutes after it was due says so ("late"): the
 * delivery loop runs every few seconds, so only a stopped server or a long backlog gets there.
 */
export const LATE_AFTER_MINUTES = 15;

/** Death-triggered letters go out at this hour, Japan time, on their day. */
export const DELIVERY_HOUR_JST = 9;

export interface DeathRule {
  rule: Exclude<DeliveryRule, 'date'>;
  delayDays: number | null;
  anniversaryYears: number | null;
  afterDeathDate: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The Japan calendar date of an instant: year, month (1–12), day. */
function japanDateParts(at: Date): [number, number, number] {
  const japan = new Date(at.getTime() + JAPAN_OFFSET_MS);
  return [japan.getUTCFullYear(), japan.getUTCMonth() + 1, japan.getUTCDate()];
}

/** DELIVERY_HOUR_JST on a Japan calendar day, as an instant. */
function japanMorning(year: number, monthIndex: number, day: number): Date {
  // Clamp 29 February to 28 February in years that do not have it.
  const lastDay = new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(year, monthIndex, Math.min(day, lastDay), DELIVERY_HOUR_JST) - JAPAN_OFFSET_MS,
  );
}

/**
 * When a death-triggered letter becomes due, the death having been confirmed at `confirmedAt`
 * (the end of the grace period) and having happened on `dateOfDeath` (Japan calendar date, as
 * the administrators gave it; the confirmation's own day when unknown):
 * - death: `delayDays` days after the confirmation (0: at once);
 * - death_anniversary: on the date of death `anniversaryYears` later, at DELIVERY_HOUR_JST
 *   (the seventh-year memorial is the 6th anniversary), or at once when that morning has
 *   already passed by the confirmation;
 * - date_after_death: on `afterDeathDate` at DELIVERY_HOUR_JST, or at once when the death is
 *   confirmed after that morning (the letter was meant for that day; it is not held back).
 */
export function dueAtAfterDeath(
  rule: DeathRule,
  confirmedAt: Date,
  dateOfDeath: string | null = null,
): Date {
  switch (rule.rule) {
    case 'death':
      return new Date(confirmedAt.getTime() + (rule.delayDays ?? 0) * DAY_MS);
    case 'death_anniversary': {
      const [year, month, day] = dateOfDeath
        ? (dateOfDeath.split('-').map(Number) as [number, number, number])
        : japanDateParts(confirmedAt);
      const anniversary = japanMorning(year + (rule.anniversaryYears ?? 1), month - 1, day);
      return anniversary > confirmedAt ? anniversary : confirmedAt;
    }
    case 'date_after_death': {
      const morning = japanMorningOf(rule.afterDeathDate ?? '');
      return morning > confirmedAt ? morning : confirmedAt;
    }
  }
}

/** True when a delivery at `deliveredAt` of a letter due at `dueAt` is late. */
export function isLate(dueAt: Date, deliveredAt: Date): boolean {
  return deliveredAt.getTime() - dueAt.getTime() > LATE_AFTER_MINUTES * 60 * 1000;
}

/** DELIVERY_HOUR_JST on a YYYY-MM-DD date, as an instant. */
export function japanMorningOf(date: string): Date {
  const [year, month, day] = date.split('-').map(Number) as number[];
  return japanMorning(year!, month! - 1, day!);
}
