import type { FormEvent } from 'react';
import type { ReactNode } from 'react';
import { DateField, InputField } from '../../components/form/TextFields';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import type { MemoryProfile } from '../../machines/memoryCreation';
import type { MemorialPage } from '../../services/api/memorial';
import { ImageFileField } from '../../components/upload/ImageFileField';
import { useProblemText, type Problems } from './inputProblems';
import { Actions } from './sectionLayout';

/** The profile as typed: every field a string (an empty date is no date). */
export interface ProfileValues {
  last_name: string;
  first_name: string;
  last_name_kana: string;
  first_name_kana: string;
  birth_date: string;
  death_date: string;
  animal_kind: string;
  photo: File | null;
}

export const emptyProfile: ProfileValues = {
  last_name: '',
  first_name: '',
  last_name_kana: '',
  first_name_kana: '',
  birth_date: '',
  death_date: '',
  animal_kind: '',
  photo: null,
};

export function profileValuesOf(page: MemorialPage): ProfileValues {
  return {
    last_name: page.lastName,
    first_name: page.firstName,
    last_name_kana: page.lastNameKana,
    first_name_kana: page.firstNameKana,
    birth_date: page.birthDate ?? '',
    death_date: page.deathDate ?? '',
    animal_kind: page.animalKind ?? '',
    photo: null,
  };
}

export const profileChanged = (a: ProfileValues, b: ProfileValues) =>
  (Object.keys(a) as (keyof ProfileValues)[]).some((key) => a[key] !== b[key]);

/** The request fields of what was typed (without the photo, which is uploaded first). */
export function profileRequestOf(values: ProfileValues, isPet: boolean): MemoryProfile {
  return {
    last_name: values.last_name.trim(),
    first_name: values.first_name.trim(),
    last_name_kana: values.last_name_kana.trim(),
    first_name_kana: values.first_name_kana.trim(),
    birth_date: values.birth_date || null,
    death_date: values.death_date || null,
    ...(isPet ? { animal_kind: values.animal_kind.trim() } : {}),
  };
}

/** Names with their kana (family name first), dates, the kind of animal for a pet, a photo. */
export function MemorialProfileForm({
  idPrefix,
  isPet,
  values,
  onChange,
  problems,
  busy,
  submitLabel,
  onSubmit,
  onCancel,
  uploadProgress,
}: {
  /** The photo's upload while it is under way (its progress and cancel). */
  uploadProgress?: ReactNode;
  idPrefix: string;
  isPet: boolean;
  values: ProfileValues;
  onChange: (values: ProfileValues) => void;
  problems: Problems;
  busy: boolean;
  submitLabel: string;
  onSubmit: () => void;
  onCancel?: () => void;
}) {
  const t = useT();
  const problem = useProblemText(problems);
  const text = (field: Exclude<keyof ProfileValues, 'photo'>, label: string) => (
    <InputField
      id={`${idPrefix}-${field}`}
      label={label}
      value={values[field]}
      onChange={(value) => onChange({ ...values, [field]: value })}
      error={problem(field)}
      disabled={busy}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate>
      {problems.form && <p role="alert">{problem('form')}</p>}
      {text('last_name', t(isPet ? 'memory-field-last-name-pet' : 'memory-field-last-name'))}
      {text('first_name', t(isPet ? 'memory-field-first-name-pet' : 'memory-field-first-name'))}
      {text('last_name_kana', t('memory-field-last-name-kana'))}
      {text('first_name_kana', t('memory-field-first-name-kana'))}
      {isPet && text('animal_kind', t('memory-field-animal-kind'))}
      <DateField
        id={`${idPrefix}-birth_date`}
        label={t('memory-field-birth-date')}
        value={values.birth_date}
        onChange={(value) => onChange({ ...values, birth_date: value })}
        error={problem('birth_date')}
        disabled={busy}
      />
      <DateField
        id={`${idPrefix}-death_date`}
        label={t('memory-field-death-date')}
        value={values.death_date}
        onChange={(value) => onChange({ ...values, death_date: value })}
        error={problem('death_date')}
        disabled={busy}
      />
      <ImageFileField
        id={`${idPrefix}-photo`}
        label={t('memory-field-photo')}
        onChange={(photo) => onChange({ ...values, photo })}
        error={problem('photo_name') ?? problem('image_name')}
        disabled={busy}
      />
      {uploadProgress}
      <Actions>
        <Button type="submit" disabled={busy}>
          {busy ? t('memory-saving') : submitLabel}
        </Button>
        {onCancel && (
          <Button type="button" $variant="secondary" disabled={busy} onClick={onCancel}>
            {t('memory-cancel')}
          </Button>
        )}
      </Actions>
    </form>
  );
}
