import styled from 'styled-components';

/* The styled pieces the memorial page's sections and screens are laid out with. */

export const SectionTitle = styled.h2`
  margin: 0 0 12px;
  font-size: 1.2rem;
`;

export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
`;

export const Muted = styled.p`
  color: ${({ theme }) => theme.colours.textMuted};
`;

export const PlainList = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
`;
