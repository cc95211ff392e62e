// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { dueAtAfterDeath, type DeathRule } from '../../server/domain/timecapsule/rules';

const anniversary = (years: number): DeathRule => ({
  rule: 'death_anniversary',
  delayDays: null,
  anniversaryYears: years,
  afterDeathDate: null,
});

describe('death-triggered letters: when they fall due', () => {
  // Released after the seven-day grace period, a week after the death itself.
  const confirmedAt = new Date('2026-02-18T03:00:00Z');

  it('counts an anniversary from the date of death, not from the end of the grace period', () => {
    // 七回忌: the 6th anniversary, 09:00 in Japan.
    expect(dueAtAfterDeath(anniversary(6), confirmedAt, '2026-02-10').toISOString()).toBe(
      '2032-02-10T00:00:00.000Z',
    );
  });

  it('puts a 29 February death on 28 February in common years', () => {
    expect(
      dueAtAfterDeath(anniversary(1), new Date('2028-03-08T00:00:00Z'), '2028-02-29').toISOString(),
    ).toBe('2029-02-28T00:00:00.000Z');
  });

  it('sends at once an anniversary that passed before the death was confirmed', () => {
    const late = new Date('2026-11-22T05:00:00Z');
    expect(dueAtAfterDeath(anniversary(1), late, '2025-01-01')).toEqual(late);
  });

  it('counts from the confirmation day when the date of death is unknown', () => {
    expect(dueAtAfterDeath(anniversary(1), confirmedAt).toISOString()).toBe(
      '2027-02-18T00:00:00.000Z',
    );
  });

  it('counts a delay from the confirmation', () => {
    const rule: DeathRule = { ...anniversary(0), rule: 'death', delayDays: 3 };
    expect(dueAtAfterDeath(rule, confirmedAt, '2026-02-10').toISOString()).toBe(
      '2026-02-21T03:00:00.000Z',
    );
  });
});
