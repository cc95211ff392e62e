import styled from 'styled-components';

/** The ending-note screen's column and its white panels. */
export const Page = styled.main`
  max-width: 760px;
  margin: 0 auto;
  padding: 16px;
`;

export const Panel = styled.section`
  margin: 16px 0;
  padding: 16px;
  border-radius: 12px;
  background: ${({ theme }) => theme.colours.surface};
  ${({ theme }) => theme.above('xs')} {
    padding: 24px;
  }
`;

/** The buttons under a form or a panel, wrapping on narrow screens. */
export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin-top: 8px;
`;
