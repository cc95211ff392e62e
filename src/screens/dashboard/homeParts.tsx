import styled from 'styled-components';
import { formatCalendarDate } from '../../components/ui/calendarDate';

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
 * Writes a calendar date (`YYYY-MM-DD`, already a Japan date) the Japanese way, in the
 * calendar the member chose on my page (Western or the Japanese era).
 */
export function useCalendarDate(): (isoDate: string) => string {
  return (isoDate) => formatCalendarDate(isoDate.slice(0, 10));
}
