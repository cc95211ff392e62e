import {
  CheckboxField,
  ChecklistField,
  DropdownField,
  RadioField,
  UserSelectField,
  type Choice,
} from '../../components/form/ChoiceFields';
import { DateField, InputField, LinkField, TextareaField } from '../../components/form/TextFields';
import { useT } from '../../i18n/useT';
import {
  INPUT_MAX_LENGTH,
  TEXTAREA_MAX_LENGTH,
  type FieldDefinition,
  type FieldValue,
} from '../../../contract/rules/endingnote';

export interface SectionFieldControlProps {
  sectionCode: string;
  field: FieldDefinition;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  /** The owner's connections, the choices of a user-select. */
  connections: Choice[];
  error?: string;
}

/** The control of one ending-note field, by its kind; labels come from translation.ftl. */
export function SectionFieldControl({
  sectionCode,
  field,
  value,
  onChange,
  connections,
  error,
}: SectionFieldControlProps) {
  const t = useT();
  const labelId = `endingnote-${sectionCode}-${field.code}`;
  const common = { id: `field-${sectionCode}-${field.code}`, label: t(labelId), error };
  const choices = (field.options ?? []).map((option) => ({
    value: option,
    label: t(`${labelId}-${option}`),
  }));
  switch (field.kind) {
    case 'input':
      return (
        <InputField
          {...common}
          value={value as string}
          onChange={onChange}
          maxLength={INPUT_MAX_LENGTH}
        />
      );
    case 'textarea':
      return (
        <TextareaField
          {...common}
          value={value as string}
          onChange={onChange}
          maxLength={TEXTAREA_MAX_LENGTH}
        />
      );
    case 'date':
      return <DateField {...common} value={value as string} onChange={onChange} />;
    case 'link':
      return (
        <LinkField
          {...common}
          value={value as string}
          onChange={onChange}
          maxLength={INPUT_MAX_LENGTH}
        />
      );
    case 'dropdown':
      return (
        <DropdownField
          {...common}
          value={value as string}
          onChange={onChange}
          choices={choices}
          noneLabel={t('endingnote-choose')}
        />
      );
    case 'radio':
      return (
        <RadioField
          {...common}
          value={value as string}
          onChange={onChange}
          choices={choices}
          noneLabel={t('endingnote-choose-none')}
        />
      );
    case 'checkbox':
      return <CheckboxField {...common} value={value as boolean} onChange={onChange} />;
    case 'checklist':
      return (
        <ChecklistField
          {...common}
          value={value as string[]}
          onChange={onChange}
          choices={choices}
        />
      );
    case 'user-select':
      return (
        <UserSelectField
          {...common}
          value={value as string[]}
          onChange={onChange}
          choices={connections}
          emptyText={t('endingnote-no-connections')}
        />
      );
  }
}
