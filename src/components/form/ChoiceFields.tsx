import styled from 'styled-components';
import {
  ChoiceGroup,
  ChoiceLabel,
  controlLook,
  describedBy,
  FieldFrame,
  Label,
  type FieldProps,
} from './FieldFrame';

export interface Choice {
  value: string;
  label: string;
}

interface SingleChoiceProps extends FieldProps<string> {
  choices: Choice[];
  /** The label of "nothing chosen yet". */
  noneLabel: string;
}

const Select = styled.select`
  ${controlLook}
`;

/** Field kind `dropdown`: one choice from a list, or none. */
export function DropdownField({
  id,
  label,
  value,
  onChange,
  error,
  disabled,
  choices,
  noneLabel,
}: SingleChoiceProps) {
  return (
    <FieldFrame id={id} error={error}>
      <Label htmlFor={id}>{label}</Label>
      <Select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        {...describedBy(id, error)}
      >
        <option value="">{noneLabel}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </Select>
    </FieldFrame>
  );
}

/** Field kind `radio`: one choice, all shown; "none" clears an earlier choice. */
export function RadioField({
  id,
  label,
  value,
  onChange,
  error,
  disabled,
  choices,
  noneLabel,
}: SingleChoiceProps) {
  return (
    <FieldFrame id={id} error={error}>
      <ChoiceGroup id={id} disabled={disabled} {...describedBy(id, error)}>
        <legend>{label}</legend>
        {[...choices, { value: '', label: noneLabel }].map((choice) => (
          <ChoiceLabel key={choice.value}>
            <input
              type="radio"
              name={id}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
            />
            {choice.label}
          </ChoiceLabel>
        ))}
      </ChoiceGroup>
    </FieldFrame>
  );
}

/** Field kind `checkbox`: one yes/no statement. */
export function CheckboxField({
  id,
  label,
  value,
  onChange,
  error,
  disabled,
}: FieldProps<boolean>) {
  return (
    <FieldFrame id={id} error={error}>
      <ChoiceLabel>
        <input
          id={id}
          type="checkbox"
          checked={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
          {...describedBy(id, error)}
        />
        {label}
      </ChoiceLabel>
    </FieldFrame>
  );
}

interface ManyChoicesProps extends FieldProps<string[]> {
  choices: Choice[];
  /** Shown instead of the list when there is nothing to choose from. */
  emptyText?: string;
}

/** Ticks in the order of the choices, whatever order they were ticked in. */
function toggled(value: string[], choices: Choice[], choice: string, on: boolean): string[] {
  const chosen = new Set(value);
  if (on) chosen.add(choice);
  else chosen.delete(choice);
  return choices.map((item) => item.value).filter((item) => chosen.has(item));
}

/** Field kind `checklist`: any number of choices. */
export function ChecklistField({
  id,
  label,
  value,
  onChange,
  error,
  disabled,
  choices,
  emptyText,
}: ManyChoicesProps) {
  return (
    <FieldFrame id={id} error={error}>
      <ChoiceGroup id={id} disabled={disabled} {...describedBy(id, error)}>
        <legend>{label}</legend>
        {choices.length === 0 && emptyText && <p>{emptyText}</p>}
        {choices.map((choice) => (
          <ChoiceLabel key={choice.value}>
            <input
              type="checkbox"
              name={id}
              value={choice.value}
              checked={value.includes(choice.value)}
              onChange={(event) =>
                onChange(toggled(value, choices, choice.value, event.target.checked))
              }
            />
            {choice.label}
          </ChoiceLabel>
        ))}
      </ChoiceGroup>
    </FieldFrame>
  );
}

/**
 * Field kind `user-select`: members chosen among one's connections (the choices are the
 * connections, the values their user ids).
 */
export function UserSelectField(props: ManyChoicesProps & { emptyText: string }) {
  return <ChecklistField {...props} />;
}
