import { ChoiceGroup, ChoiceLabel, FieldFrame } from '../../components/form/FieldFrame';
import { DateField, DateTimeField, NumberField } from '../../components/form/TextFields';
import {
  LETTER_MAX_ANNIVERSARY_YEARS,
  LETTER_MAX_DELAY_DAYS,
} from '../../../contract/rules/timecapsule';
import { useT } from '../../i18n/useT';
import { DELIVERY_RULES } from './letterDraft';
import { Hint, Section, type LetterFormPart } from './letterFormParts';
import { memorialServiceOf } from './letterText';

/** When the letter goes: its rule, and the one field that rule asks for. */
export function LetterDelivery({ draft, set, errorOf }: LetterFormPart) {
  const t = useT();
  const years = Number(draft.anniversaryYears);
  const memorialService = Number.isInteger(years) ? memorialServiceOf(t, years) : undefined;

  return (
    <Section>
      <legend>{t('timecapsule-form-delivery')}</legend>
      <FieldFrame id="letter-rule" error={undefined}>
        <ChoiceGroup id="letter-rule">
          <legend>{t('timecapsule-form-rule')}</legend>
          {DELIVERY_RULES.map((rule) => (
            <ChoiceLabel key={rule}>
              <input
                type="radio"
                name="letter-rule"
                value={rule}
                checked={draft.rule === rule}
                onChange={() => set('rule', rule)}
              />
              {t(`timecapsule-rule-${rule}`)}
            </ChoiceLabel>
          ))}
        </ChoiceGroup>
      </FieldFrame>
      {draft.rule === 'date' && (
        <DateTimeField
          id="letter-send-at"
          label={t('timecapsule-form-send-at')}
          value={draft.sendAt}
          onChange={(sendAt) => set('sendAt', sendAt)}
          error={errorOf('delivery.send_at')}
        />
      )}
      {draft.rule === 'death' && (
        <>
          <NumberField
            id="letter-delay-days"
            label={t('timecapsule-form-delay-days')}
            value={draft.delayDays}
            min={0}
            max={LETTER_MAX_DELAY_DAYS}
            onChange={(delayDays) => set('delayDays', delayDays)}
            error={errorOf('delivery.delay_days')}
          />
          <Hint>{t('timecapsule-form-delay-days-hint')}</Hint>
        </>
      )}
      {draft.rule === 'death_anniversary' && (
        <>
          <NumberField
            id="letter-anniversary-years"
            label={t('timecapsule-form-anniversary-years')}
            value={draft.anniversaryYears}
            min={1}
            max={LETTER_MAX_ANNIVERSARY_YEARS}
            onChange={(anniversaryYears) => set('anniversaryYears', anniversaryYears)}
            error={errorOf('delivery.anniversary_years')}
          />
          <Hint aria-live="polite">
            {memorialService
              ? t('timecapsule-form-anniversary-service', { service: memorialService })
              : t('timecapsule-form-anniversary-hint')}
          </Hint>
        </>
      )}
      {draft.rule === 'date_after_death' && (
        <>
          <DateField
            id="letter-after-death-date"
            label={t('timecapsule-form-after-death-date')}
            value={draft.afterDeathDate}
            onChange={(afterDeathDate) => set('afterDeathDate', afterDeathDate)}
            error={errorOf('delivery.after_death_date')}
          />
          <Hint>{t('timecapsule-form-after-death-date-hint')}</Hint>
        </>
      )}
    </Section>
  );
}
