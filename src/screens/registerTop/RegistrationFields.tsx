import {
  ChoiceGroup,
  ChoiceLabel,
  describedBy,
  FieldFrame,
} from '../../components/form/FieldFrame';
import { DropdownField } from '../../components/form/ChoiceFields';
import { DateField, InputField } from '../../components/form/TextFields';
import { useT } from '../../i18n/useT';
import type {
  FieldErrors,
  RegistrationField,
  RegistrationForm,
  RegistrationVariant,
} from '../../machines/registration';
import { NAME_MAX_LENGTH, SEX_CODES } from '../../../contract/rules/account';
import { PREFECTURES } from '../../../contract/rules/prefectures';
import { EmailField, PasswordField } from '../login/authFormParts';
import { RegistrationIcon, type ChosenIcon } from './RegistrationIcon';

const PREFECTURE_CHOICES = PREFECTURES.map(({ name }) => ({ value: name, label: name }));

interface RegistrationFieldsProps {
  form: RegistrationForm;
  errors: FieldErrors;
  variant: RegistrationVariant;
  onEdit: (field: RegistrationField, value: string) => void;
  icon: ChosenIcon | null;
  onIcon: (icon: ChosenIcon | null) => void;
}

/** The input step: every field of the registration payload, errors per field. */
export function RegistrationFields({
  form,
  errors,
  variant,
  onEdit,
  icon,
  onIcon,
}: RegistrationFieldsProps) {
  const t = useT();
  const error = (field: RegistrationField) =>
    errors[field] ? t(`validation-${errors[field]}`) : undefined;
  const text = (field: RegistrationField, label: string) => (
    <InputField
      id={`register-${field}`}
      label={t(label)}
      value={form[field]}
      onChange={(value) => onEdit(field, value)}
      error={error(field)}
      maxLength={NAME_MAX_LENGTH}
    />
  );
  return (
    <>
      {text('username', 'register-username')}
      <EmailField
        id="register-email"
        label={t('register-email')}
        value={form.email}
        onChange={(value) => onEdit('email', value)}
        error={error('email')}
        autoComplete="email"
      />
      {variant !== 'external' && (
        <PasswordField
          id="register-password"
          label={t('register-password')}
          hint={t('register-password-hint')}
          value={form.password}
          onChange={(value) => onEdit('password', value)}
          error={error('password')}
          autoComplete="new-password"
        />
      )}
      {text('lastName', 'register-last-name')}
      {text('firstName', 'register-first-name')}
      {text('lastNameKana', 'register-last-name-kana')}
      {text('firstNameKana', 'register-first-name-kana')}
      <DropdownField
        id="register-address"
        label={t('register-address')}
        value={form.address}
        onChange={(value) => onEdit('address', value)}
        error={error('address')}
        choices={PREFECTURE_CHOICES}
        noneLabel={t('register-address-none')}
      />
      <DateField
        id="register-birthdate"
        label={t('register-birthdate')}
        value={form.birthdate}
        onChange={(value) => onEdit('birthdate', value)}
        error={error('birthdate')}
      />
      <FieldFrame id="register-sex" error={error('sexCode')}>
        <ChoiceGroup id="register-sex" {...describedBy('register-sex', error('sexCode'))}>
          <legend>{t('register-sex')}</legend>
          {SEX_CODES.map((code) => (
            <ChoiceLabel key={code}>
              <input
                type="radio"
                name="register-sex"
                value={String(code)}
                checked={form.sexCode === String(code)}
                onChange={() => onEdit('sexCode', String(code))}
              />
              {t(`register-sex-${code}`)}
            </ChoiceLabel>
          ))}
        </ChoiceGroup>
      </FieldFrame>
      <RegistrationIcon
        icon={icon}
        username={form.username}
        serverError={errors.userIconUrl}
        onChange={(chosen) => {
          onIcon(chosen);
          onEdit('userIconUrl', chosen?.name ?? '');
        }}
      />
    </>
  );
}
