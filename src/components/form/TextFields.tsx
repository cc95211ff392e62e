import styled from 'styled-components';
import { controlLook, LabelledField, textControlProps, type FieldProps } from './FieldFrame';

const Input = styled.input`
  ${controlLook}
`;

const Area = styled.textarea`
  ${controlLook}
  min-height: 120px;
  resize: vertical;
`;

interface TextFieldProps extends FieldProps<string> {
  maxLength?: number;
}

function TypedInput({
  maxLength,
  type,
  inputMode,
  placeholder,
  min,
  max,
  ...field
}: TextFieldProps & {
  type: 'text' | 'date' | 'datetime-local' | 'number' | 'url';
  inputMode?: 'url' | 'numeric';
  placeholder?: string;
  min?: number;
  max?: number;
}) {
  return (
    <LabelledField {...field}>
      <Input
        type={type}
        maxLength={maxLength}
        {...{ inputMode, placeholder, min, max }}
        {...textControlProps(field)}
      />
    </LabelledField>
  );
}

/** Field kind `input`: one line of text. */
export function InputField(props: TextFieldProps) {
  return <TypedInput type="text" {...props} />;
}

/** Field kind `date`: the browser's date picker; the value is `YYYY-MM-DD` or empty. */
export function DateField(props: FieldProps<string>) {
  return <TypedInput type="date" {...props} />;
}

/**
 * A date and a time of day from the browser's picker: `YYYY-MM-DDTHH:mm` without an offset,
 * read in the time zone the label names (the time capsule's delivery time is Japan time).
 */
export function DateTimeField(props: FieldProps<string>) {
  return <TypedInput type="datetime-local" {...props} />;
}

/** A whole number typed with the numeric keypad; the value stays the typed text. */
export function NumberField(props: FieldProps<string> & { min?: number; max?: number }) {
  return <TypedInput type="number" inputMode="numeric" {...props} />;
}

/** Field kind `link`: a web address (http or https). */
export function LinkField(props: TextFieldProps) {
  return <TypedInput type="url" inputMode="url" placeholder="https://" {...props} />;
}

/** Field kind `textarea`: several lines of text. */
export function TextareaField({ maxLength, ...field }: TextFieldProps) {
  return (
    <LabelledField {...field}>
      <Area maxLength={maxLength} {...textControlProps(field)} />
    </LabelledField>
  );
}
