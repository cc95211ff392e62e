import type { ChangeEvent, ReactNode } from 'react';
import styled, { css } from 'styled-components';

/** What every field kind takes: a stable id, its visible label, the value and its change. */
export interface FieldProps<T> {
  id: string;
  label: string;
  value: T;
  onChange: (value: T) => void;
  /** The problem to show under the field, already in Japanese. */
  error?: string;
  disabled?: boolean;
}

export const errorId = (id: string) => `${id}-error`;

/** ARIA wiring of a control to its error text. */
export const describedBy = (id: string, error: string | undefined) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': errorId(id) } : {};

const Frame = styled.div`
  margin: 0 0 20px;
  min-width: 0;
`;

export const Label = styled.label`
  display: block;
  margin-bottom: 6px;
  font-weight: bold;
`;

const ErrorText = styled.p`
  margin: 6px 0 0;
  color: ${({ theme }) => theme.colours.attention};
  font-size: 0.9rem;
`;

/** The look of every text-like control: full width, 44 px touch height, visible border. */
export const controlLook = css`
  display: block;
  width: 100%;
  min-height: 44px;
  padding: 8px 12px;
  border: 1px solid ${({ theme }) => theme.colours.border};
  border-radius: 8px;
  background: ${({ theme }) => theme.colours.surface};
  color: ${({ theme }) => theme.colours.text};
  &[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.colours.attention};
  }
`;

/** A group of choices (radio, checklist, user-select) with its legend. */
export const ChoiceGroup = styled.fieldset`
  margin: 0;
  padding: 0;
  border: none;
  min-width: 0;
  legend {
    padding: 0;
    margin-bottom: 6px;
    font-weight: bold;
  }
`;

export const ChoiceLabel = styled.label`
  display: flex;
  align-items: center;
  gap: 10px;
  min-height: 44px;
  input {
    width: 20px;
    height: 20px;
    flex: none;
    margin: 0;
  }
`;

/** A field's frame: the control, then its error text when there is one. */
export function FieldFrame({
  id,
  error,
  children,
}: {
  id: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <Frame>
      {children}
      {error && <ErrorText id={errorId(id)}>{error}</ErrorText>}
    </Frame>
  );
}

/** A field whose control carries the label (input, textarea, select): label, control, error. */
export function LabelledField({
  id,
  label,
  error,
  children,
}: Pick<FieldProps<unknown>, 'id' | 'label' | 'error'> & { children: ReactNode }) {
  return (
    <FieldFrame id={id} error={error}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </FieldFrame>
  );
}

/** The props every text-valued control takes from its field: id, value, change, error wiring. */
export function textControlProps({ id, value, onChange, error, disabled }: FieldProps<string>) {
  return {
    id,
    value,
    disabled,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      onChange(event.target.value),
    ...describedBy(id, error),
  };
}

/** A field of several controls (radio buttons, check boxes) under one legend. */
export function ChoiceField({
  id,
  label,
  error,
  disabled,
  children,
}: Pick<FieldProps<unknown>, 'id' | 'label' | 'error' | 'disabled'> & { children: ReactNode }) {
  return (
    <FieldFrame id={id} error={error}>
      <ChoiceGroup id={id} disabled={disabled} {...describedBy(id, error)}>
        <legend>{label}</legend>
        {children}
      </ChoiceGroup>
    </FieldFrame>
  );
}
