import styled from 'styled-components';
import {
  ChoiceField,
  ChoiceLabel,
  controlLook,
  describedBy,
  FieldFrame,
  LabelledField,
  textControlProps,
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
export function DropdownField({ choices, noneLabel, ...field }: SingleChoiceProps) {
  return (
    <LabelledField {...field}>
      <Select {...textControlProps(field)}>
        <option value="">{noneLabel}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </Select>
    </LabelledField>
  );
}

/** Field kind `radio`: one choice, all shown; "none" clears an earlier choice. */
export function RadioField({ choices, noneLabel, ...field }: SingleChoiceProps) {
  const { id, value, onChange } = field;
  return (
    <ChoiceField {...field}>
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
    </ChoiceField>
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
export function ChecklistField({ choices, emptyText, ...field }: ManyChoicesProps) {
  const { id, value, onChange } = field;
  return (
    <ChoiceField {...field}>
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
    </ChoiceField>
  );
}

/**
 * Field kind `user-select`: members chosen among one's connections (the choices are the
 * connections, the values their user ids).
 */
export function UserSelectField(props: ManyChoicesProps & { emptyText: string }) {
  return <ChecklistField {...props} />;
}
