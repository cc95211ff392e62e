import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ElapsedTime } from '../../src/components/ui/ElapsedTime';
import { elapsedSince, formatTokyoDateTime } from '../../src/components/ui/elapsedTime';
import { renderInApp } from './shellProviders';

const now = new Date('2026-11-22T03:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('elapsed time', () => {
  it.each([
    [0, 'seconds', 0],
    [59 * SECOND, 'seconds', 59],
    [MINUTE, 'minutes', 1],
    [HOUR - 1, 'minutes', 59],
    [HOUR, 'hours', 1],
    [DAY - 1, 'hours', 23],
    [DAY, 'days', 1],
    [45 * DAY, 'days', 45],
  ])('%i ms ago reads as %s %i', (elapsed, unit, count) => {
    expect(elapsedSince(ago(elapsed), now)).toEqual({ unit, count });
  });

  it('reads a time slightly in the future as just now', () => {
    expect(elapsedSince(new Date(now.getTime() + 5 * SECOND), now)).toEqual({
      unit: 'seconds',
      count: 0,
    });
  });

  it('shows UTC instants in Asia/Tokyo', () => {
    // 15:30 UTC is 00:30 the next day in Tokyo (UTC+9).
    expect(formatTokyoDateTime(new Date('2026-01-01T15:30:00Z'))).toBe('2026年1月2日 00:30');
  });

  it('renders the Japanese label with the Tokyo date and time as its tooltip', async () => {
    renderInApp(<ElapsedTime at={ago(3 * MINUTE).toISOString()} now={now} />);
    const time = await screen.findByText('3分前');
    expect(time.getAttribute('title')).toBe('2026年11月22日 11:57');
    expect(time.getAttribute('datetime')).toBe('2026-11-22T02:57:00.000Z');
  });
});
