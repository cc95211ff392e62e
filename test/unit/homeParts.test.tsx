import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useCalendarDate } from '../../src/screens/dashboard/homeParts';
import { renderInApp } from './shellProviders';

function Dates({ dates }: { dates: string[] }) {
  const calendarDate = useCalendarDate();
  return <p>{dates.map(calendarDate).join(' / ')}</p>;
}

describe('calendar dates of the home screens', () => {
  it('writes year, month and day the Japanese way, without digit grouping or leading zeros', async () => {
    renderInApp(<Dates dates={['1930-04-01', '2026-11-22', '2027-01-09T00:00:00Z']} />);
    expect(await screen.findByText('1930年4月1日 / 2026年11月22日 / 2027年1月9日')).toBeTruthy();
  });
});
