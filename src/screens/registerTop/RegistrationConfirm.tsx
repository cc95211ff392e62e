import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { formatCalendarDate } from '../../components/ui/calendarDate';
import { Avatar } from '../../components/ui/Avatar';
import type { RegistrationForm, RegistrationVariant } from '../../machines/registration';
import type { ChosenIcon } from './RegistrationIcon';

const List = styled.dl`
  margin: 0 0 16px;
  display: grid;
  grid-template-columns: minmax(7em, auto) 1fr;
  gap: 8px 12px;
  dt {
    font-weight: bold;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

/** The confirm step: what will be sent, family name first (the password is not shown). */
export function RegistrationConfirm({
  form,
  variant,
  icon,
}: {
  form: RegistrationForm;
  variant: RegistrationVariant;
  icon: ChosenIcon | null;
}) {
  const t = useT();
  const rows: [string, string][] = [
    ['register-username', form.username],
    ['register-email', form.email],
    ...(variant === 'external'
      ? []
      : ([['register-password', t('register-password-masked')]] as [string, string][])),
    ['register-last-name', form.lastName],
    ['register-first-name', form.firstName],
    ['register-last-name-kana', form.lastNameKana],
    ['register-first-name-kana', form.firstNameKana],
    ['register-address', form.address],
    ['register-birthdate', formatCalendarDate(form.birthdate)],
    ['register-sex', form.sexCode ? t(`register-sex-${form.sexCode}`) : ''],
  ];
  return (
    <List>
      {rows.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <dt>{t(label)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      <dt>{t('register-icon')}</dt>
      <dd>
        {icon ? (
          <Avatar
            image={icon.preview}
            name={form.username}
            size={64}
            smallSize={64}
            showBadge={false}
          />
        ) : (
          t('register-icon-none')
        )}
      </dd>
    </List>
  );
}
