import styled from 'styled-components';
import { useT } from '../../i18n/useT';

/** Pieces shared by the dashboard, the mourning tab and the my page. */

export const ItemList = styled.ul`
  display: flex;
  flex-direction: column;
  gap: 8px;
  margin: 0 0 12px;
  padding: 0;
  list-style: none;
`;

export const Muted = styled.small`
  color: ${({ theme }) => theme.colours.textMuted};
`;

/** The row of links or buttons that says what to do next. */
export const NextStep = styled.p`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin: 12px 0 0;
`;

/**
 * `YYYY-MM-DD` as its parts for the `dashboard-date` text, as strings: Fluent would group a
 * number's digits (a year of 1,930).
 */
function dateParts(isoDate: string): { year: string; month: string; day: string } {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number);
  return { year: String(year), month: String(month), day: String(day) };
}

/** Writes a calendar date (`YYYY-MM-DD`, already a Japan date) the Japanese way. */
export function useCalendarDate(): (isoDate: string) => string {
  const t = useT();
  return (isoDate) => t('dashboard-date', dateParts(isoDate));
}
