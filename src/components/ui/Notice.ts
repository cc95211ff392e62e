import styled from 'styled-components';

/** A short notice in a form or a screen: attention for problems, success for what went well. */
export const Notice = styled.p<{ $tone: 'attention' | 'success' }>`
  margin: 16px 0;
  padding: 12px 16px;
  border-radius: 8px;
  border: 1px solid ${({ theme, $tone }) => theme.colours[$tone]};
  background: ${({ theme }) => theme.colours.surface};
`;
