import { afterEach, describe, expect, it } from 'vitest';
import {
  CALENDAR_STORAGE_KEY,
  formatCalendarDate,
  formatTokyoInstantDate,
  storeCalendarChoice,
} from '../../src/components/ui/calendarDate';
import { formatTokyoDate } from '../../src/screens/deathConfirmation/dates';
import { japanDate, japanTime } from '../../src/screens/timecapsule/letterText';

afterEach(() => localStorage.removeItem(CALENDAR_STORAGE_KEY));

describe('dates in the member’s calendar', () => {
  it('writes Western dates until the member chooses the Japanese era', () => {
    expect(formatCalendarDate('2025-11-25')).toBe('2025年11月25日');
    storeCalendarChoice('japanese');
    expect(formatCalendarDate('2025-11-25')).toBe('令和7年11月25日');
    expect(formatCalendarDate('1955-05-05')).toBe('昭和30年5月5日');
    // The first year of an era is 元年, as Intl writes it.
    expect(formatCalendarDate('2019-05-01')).toBe('令和元年5月1日');
    expect(formatCalendarDate('2019-04-30')).toBe('平成31年4月30日');
  });

  it('takes an instant’s date in Asia/Tokyo', () => {
    const lateEveningUtc = new Date('2025-11-24T16:30:00Z');
    expect(formatTokyoInstantDate(lateEveningUtc, 'western')).toBe('2025年11月25日');
    storeCalendarChoice('japanese');
    expect(formatTokyoDate('2025-11-24T16:30:00Z')).toBe('令和7年11月25日');
    expect(formatTokyoDate('2025-11-24')).toBe('令和7年11月24日');
  });

  it('writes a letter’s dates and times in the chosen calendar', () => {
    expect(japanTime('2025-11-24T16:30:00Z')).toBe('2025年11月25日 01:30');
    expect(japanDate('2025-11-24')).toBe('2025年11月24日');
    storeCalendarChoice('japanese');
    expect(japanTime('2025-11-24T16:30:00Z')).toBe('令和7年11月25日 01:30');
    expect(japanDate('2025-11-24')).toBe('令和7年11月24日');
  });

  it('leaves what is not a date as it is', () => {
    expect(formatCalendarDate('unknown')).toBe('unknown');
  });
});
