import styled from 'styled-components';
import type { LetterDraft } from './letterDraft';

/** What each part of the letter form is given: the draft, a way to change one field of it,
 * and the Japanese text of a field's problem. */
export interface LetterFormPart {
  draft: LetterDraft;
  set: <K extends keyof LetterDraft>(key: K, value: LetterDraft[K]) => void;
  errorOf: (field: string) => string | undefined;
}

export const Section = styled.fieldset`
  margin: 0 0 24px;
  padding: 16px;
  border: 1px solid ${({ theme }) => theme.colours.border};
  border-radius: 12px;
  min-width: 0;
  legend {
    padding: 0 4px;
    font-weight: bold;
    font-size: 1.05rem;
  }
`;

export const Hint = styled.p`
  margin: -12px 0 20px;
  color: ${({ theme }) => theme.colours.textMuted};
  font-size: 0.9rem;
`;
