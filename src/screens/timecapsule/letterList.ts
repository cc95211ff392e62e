import { Link } from 'react-router';
import styled from 'styled-components';

/** One letter in a list: a link to it, then what it is about in muted lines. */
export const LetterList = styled.ul`
  display: flex;
  flex-direction: column;
  gap: 12px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

export const LetterItem = styled.li`
  display: flex;
  flex-direction: column;
  gap: 4px;
  padding: 12px;
  border-radius: 8px;
  border: 1px solid ${({ theme }) => theme.colours.border};
  overflow-wrap: anywhere;
  small {
    color: ${({ theme }) => theme.colours.textMuted};
  }
`;

export const LetterLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  min-height: 44px;
  color: ${({ theme }) => theme.colours.text};
  font-weight: bold;
`;
