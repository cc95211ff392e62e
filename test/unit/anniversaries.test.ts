import { describe, expect, it } from 'vitest';
import {
  addDays,
  addYears,
  anniversariesBetween,
  anniversariesOf,
} from '../../server/domain/memorial/anniversaries';

const datesOf = (deathDate: string) =>
  Object.fromEntries(anniversariesOf(deathDate).map(({ code, date }) => [code, date]));

describe('memorial anniversaries (年忌法要)', () => {
  it('counts the early services with the day of death as day 1 and N回忌 as N−1 years', () => {
    expect(datesOf('2026-01-10')).toEqual({
      shonanoka: '2026-01-16',
      shijukunichi: '2026-02-27',
      isshuki: '2027-01-10',
      sankaiki: '2028-01-10',
      nanakaiki: '2032-01-10',
      jusankaiki: '2038-01-10',
      junanakaiki: '2042-01-10',
      nijusankaiki: '2048-01-10',
      nijunanakaiki: '2052-01-10',
      sanjusankaiki: '2058-01-10',
    });
  });

  it('lists the services in date order with stable codes', () => {
    const list = anniversariesOf('2020-06-15');
    expect(list.map(({ code }) => code)).toEqual([
      'shonanoka',
      'shijukunichi',
      'isshuki',
      'sankaiki',
      'nanakaiki',
      'jusankaiki',
      'junanakaiki',
      'nijusankaiki',
      'nijunanakaiki',
      'sanjusankaiki',
    ]);
    const dates = list.map(({ date }) => date);
    expect([...dates].sort()).toEqual(dates);
  });

  it('moves a 29 February death to 28 February in common years and keeps 29 in leap years', () => {
    const dates = datesOf('2024-02-29');
    expect(dates.shonanoka).toBe('2024-03-06');
    expect(dates.shijukunichi).toBe('2024-04-17');
    expect(dates.isshuki).toBe('2025-02-28');
    expect(dates.sankaiki).toBe('2026-02-28');
    expect(dates.nanakaiki).toBe('2030-02-28');
    expect(dates.jusankaiki).toBe('2036-02-29');
    expect(dates.junanakaiki).toBe('2040-02-29');
    expect(dates.sanjusankaiki).toBe('2056-02-29');
  });

  it('crosses month and year ends and the leap day when counting days', () => {
    expect(datesOf('2025-12-28').shonanoka).toBe('2026-01-03');
    expect(datesOf('2024-02-25').shonanoka).toBe('2024-03-02');
    expect(datesOf('2023-02-25').shonanoka).toBe('2023-03-03');
    expect(datesOf('2023-12-31').shijukunichi).toBe('2024-02-17');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });

  it('treats 2000 as a leap year and 2100 as a common one', () => {
    expect(addYears('1996-02-29', 4)).toBe('2000-02-29');
    expect(addYears('2096-02-29', 4)).toBe('2100-02-28');
    expect(addYears('2026-03-31', -1)).toBe('2025-03-31');
  });

  it('picks the services inside a window, both ends included', () => {
    expect(anniversariesBetween('2025-11-22', '2025-11-28', '2026-01-09')).toEqual([
      { code: 'shonanoka', date: '2025-11-28' },
      { code: 'shijukunichi', date: '2026-01-09' },
    ]);
    expect(anniversariesBetween('2025-11-22', '2025-11-29', '2026-01-08')).toEqual([]);
  });

  it('refuses what is not a calendar date', () => {
    expect(() => anniversariesOf('2025-02-30')).toThrow(RangeError);
    expect(() => anniversariesOf('25-2-3')).toThrow(RangeError);
  });
});
