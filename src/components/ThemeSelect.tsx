import styled from 'styled-components';
import { useT } from '../i18n/useT';
import { useThemeSetting } from '../theme/ThemeRoot';
import type { ThemeChoice } from '../theme/themeChoice';

const CHOICES: ThemeChoice[] = ['light', 'dark', 'system'];

/** A device setting's choices under one legend (theme, calendar). */
export const Fieldset = styled.fieldset`
  border: 1px solid ${({ theme }) => theme.colours.border};
  border-radius: 8px;
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  padding: 8px 16px 12px;
`;

/** Light, dark or system: the choice is stored on this device. */
export function ThemeSelect() {
  const t = useT();
  const { choice, setChoice } = useThemeSetting();
  return (
    <Fieldset>
      <legend>{t('theme-label')}</legend>
      {CHOICES.map((option) => (
        <label key={option}>
          <input
            type="radio"
            name="theme"
            value={option}
            checked={choice === option}
            onChange={() => setChoice(option)}
          />{' '}
          {t(`theme-${option}`)}
        </label>
      ))}
    </Fieldset>
  );
}
