import styled from 'styled-components';

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

/** `YYYY-MM-DD` as its parts, for the `dashboard-date` text (year, month and day). */
export function dateParts(isoDate: string): { year: number; month: number; day: number } {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number);
  return { year: year!, month: month!, day: day! };
}
