import { Link } from 'react-router';
import styled, { css } from 'styled-components';

type Variant = 'primary' | 'secondary';

const look = css<{ $variant?: Variant }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 44px;
  padding: 10px 24px;
  border-radius: 999px;
  border: 2px solid ${({ theme }) => theme.colours.primary};
  font-weight: bold;
  text-decoration: none;
  cursor: pointer;
  background: ${({ theme, $variant }) =>
    $variant === 'secondary' ? theme.colours.surface : theme.colours.primary};
  color: ${({ theme, $variant }) =>
    $variant === 'secondary' ? theme.colours.primary : theme.colours.onPrimary};
  &:disabled {
    opacity: 0.5;
    cursor: not-allowed;
  }
`;

/** The one button look of the app: primary (filled) or secondary (outlined). */
export const Button = styled.button<{ $variant?: Variant }>`
  ${look}
`;

/** A link inside the app that looks like a button. */
export const ButtonLink = styled(Link)<{ $variant?: Variant }>`
  ${look}
`;
