import { useState } from 'react';
import { useT } from '../i18n/useT';
import {
  formatCalendarDate,
  readCalendarChoice,
  storeCalendarChoice,
  type CalendarChoice,
} from './ui/calendarDate';
import { tokyoToday } from '../../contract/rules/tokyoDate';
import { Fieldset } from './ThemeSelect';

const CHOICES: CalendarChoice[] = ['western', 'japanese'];

/**
 * Western or Japanese era (Reiwa 7) dates for birthdates, memorial anniversaries and
 * letters; the choice is stored on this device, each label shows today's date in it.
 */
export function CalendarSelect() {
  const t = useT();
  const [choice, setChoice] = useState<CalendarChoice>(readCalendarChoice);
  const today = tokyoToday(new Date());
  return (
    <Fieldset>
      <legend>{t('calendar-label')}</legend>
      {CHOICES.map((option) => (
        <label key={option}>
          <input
            type="radio"
            name="calendar"
            value={option}
            checked={choice === option}
            onChange={() => {
              storeCalendarChoice(option);
              setChoice(option);
            }}
          />{' '}
          {t(`calendar-${option}`, { example: formatCalendarDate(today, option) })}
        </label>
      ))}
    </Fieldset>
  );
}
