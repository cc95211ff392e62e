import { useState } from 'react';
import { UserSelectField, type Choice } from '../../components/form/ChoiceFields';
import { InputField } from '../../components/form/TextFields';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { memberRecipientsProblem, type FieldProblem, type GuestDraft } from './letterDraft';
import { Section, type LetterFormPart } from './letterFormParts';

interface LetterRecipientsProps extends LetterFormPart {
  connections: Choice[];
  problems: FieldProblem[];
}

/**
 * Who receives the letter: connections, and people not yet members by name and email. A
 * guest's row number in the server's `recipients` list follows the chosen members.
 */
export function LetterRecipients({
  draft,
  set,
  errorOf,
  connections,
  problems,
}: LetterRecipientsProps) {
  const t = useT();
  const [nextGuestKey, setNextGuestKey] = useState(draft.guests.length);
  const setGuest = (key: number, change: Partial<GuestDraft>) =>
    set(
      'guests',
      draft.guests.map((guest) => (guest.key === key ? { ...guest, ...change } : guest)),
    );
  const addGuest = () => {
    set('guests', [...draft.guests, { key: nextGuestKey, lastName: '', firstName: '', email: '' }]);
    setNextGuestKey(nextGuestKey + 1);
  };
  const membersProblem = memberRecipientsProblem(problems, draft.memberIds.length);

  return (
    <Section>
      <legend>{t('timecapsule-form-recipients')}</legend>
      <UserSelectField
        id="letter-members"
        label={t('timecapsule-form-members')}
        choices={connections}
        value={draft.memberIds}
        onChange={(value) => set('memberIds', value)}
        emptyText={t('timecapsule-form-no-connections')}
        error={membersProblem && t(`validation-${membersProblem.code}`)}
      />
      {draft.guests.map((guest, row) => {
        const field = `recipients.${draft.memberIds.length + row}`;
        const id = `letter-guest-${guest.key}`;
        const guestError = (part: string) =>
          errorOf(`${field}.${part}`) ??
          (part === 'email' && problems.some((p) => p.field === field)
            ? errorOf(field)
            : undefined);
        return (
          <Section key={guest.key}>
            <legend>{t('timecapsule-form-guest', { number: row + 1 })}</legend>
            <InputField
              id={`${id}-last-name`}
              label={t('timecapsule-form-guest-last-name')}
              value={guest.lastName}
              onChange={(lastName) => setGuest(guest.key, { lastName })}
              error={guestError('last_name')}
            />
            <InputField
              id={`${id}-first-name`}
              label={t('timecapsule-form-guest-first-name')}
              value={guest.firstName}
              onChange={(firstName) => setGuest(guest.key, { firstName })}
              error={guestError('first_name')}
            />
            <InputField
              id={`${id}-email`}
              label={t('timecapsule-form-guest-email')}
              value={guest.email}
              onChange={(email) => setGuest(guest.key, { email })}
              error={guestError('email')}
            />
            <Button
              type="button"
              $variant="secondary"
              onClick={() =>
                set(
                  'guests',
                  draft.guests.filter((other) => other.key !== guest.key),
                )
              }
            >
              {t('timecapsule-form-guest-remove', { number: row + 1 })}
            </Button>
          </Section>
        );
      })}
      <Button type="button" $variant="secondary" onClick={addGuest}>
        {t('timecapsule-form-guest-add')}
      </Button>
    </Section>
  );
}
