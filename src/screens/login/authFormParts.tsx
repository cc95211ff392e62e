import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { controlLook, describedBy, FieldFrame, Label } from '../../components/form/FieldFrame';
import { useT } from '../../i18n/useT';

/** The column every sign-in, registration and reset screen sits in (mobile first). */
export const AuthPage = styled.main`
  max-width: 520px;
  margin: 0 auto;
  padding: 24px 16px 96px;
  h1 {
    font-family: ${({ theme }) => theme.fonts.heading};
    font-size: 1.5rem;
    margin: 0 0 16px;
  }
`;

export const AuthCard = styled.div`
  background: ${({ theme }) => theme.colours.surface};
  border: 1px solid ${({ theme }) => theme.colours.border};
  border-radius: 12px;
  padding: 20px 16px;
`;

export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin-top: 8px;
  > * {
    flex: 1 1 200px;
  }
`;

export const Links = styled.p`
  margin: 20px 0 0;
  display: grid;
  gap: 8px;
  a {
    color: ${({ theme }) => theme.colours.primary};
  }
`;

const AlertBox = styled.p<{ $kind: 'error' | 'info' }>`
  margin: 0 0 16px;
  padding: 12px;
  border-radius: 8px;
  border: 1px solid
    ${({ theme, $kind }) => ($kind === 'error' ? theme.colours.attention : theme.colours.success)};
  color: ${({ theme, $kind }) => ($kind === 'error' ? theme.colours.attention : theme.colours.text)};
  background: ${({ theme }) => theme.colours.surface};
`;

/** A message the screen reader announces as soon as it appears. */
export function FormMessage({
  kind = 'error',
  children,
}: {
  kind?: 'error' | 'info';
  children: ReactNode;
}) {
  return (
    <AlertBox role={kind === 'error' ? 'alert' : 'status'} $kind={kind}>
      {children}
    </AlertBox>
  );
}

const Input = styled.input`
  ${controlLook}
`;

const ShowToggle = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
  min-height: 44px;
  font-size: 0.9rem;
  input {
    width: 20px;
    height: 20px;
    margin: 0;
  }
`;

const Hint = styled.p`
  margin: 6px 0 0;
  font-size: 0.85rem;
  color: ${({ theme }) => theme.colours.textMuted};
`;

/**
 * A field is controlled (`value` and `onChange`) or left to the browser (neither): a field left
 * to the browser keeps what was typed into the server's page before the app hydrated it.
 */
interface CredentialFieldProps {
  id: string;
  label: string;
  value?: string;
  onChange?: (value: string) => void;
  error?: string;
  hint?: string;
  disabled?: boolean;
  autoComplete: string;
}

/** An email address field, with the keyboard and autofill that suit it. */
export function EmailField({
  id,
  label,
  value,
  onChange,
  error,
  disabled,
  autoComplete,
}: CredentialFieldProps) {
  return (
    <FieldFrame id={id} error={error}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="email"
        inputMode="email"
        autoComplete={autoComplete}
        value={value}
        disabled={disabled}
        onChange={onChange && ((event) => onChange(event.target.value))}
        {...describedBy(id, error)}
      />
    </FieldFrame>
  );
}

/** A password field with a "show password" switch (typing on a phone is error-prone). */
export function PasswordField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  disabled,
  autoComplete,
}: CredentialFieldProps) {
  const t = useT();
  const [shown, setShown] = useState(false);
  const hintId = `${id}-hint`;
  const described = describedBy(id, error);
  return (
    <FieldFrame id={id} error={error}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type={shown ? 'text' : 'password'}
        autoComplete={autoComplete}
        value={value}
        disabled={disabled}
        onChange={onChange && ((event) => onChange(event.target.value))}
        {...described}
        aria-describedby={
          [hint ? hintId : '', described['aria-describedby'] ?? ''].join(' ').trim() || undefined
        }
      />
      {hint && <Hint id={hintId}>{hint}</Hint>}
      <ShowToggle>
        <input
          type="checkbox"
          checked={shown}
          onChange={(event) => setShown(event.target.checked)}
        />
        {t('login-show-password')}
      </ShowToggle>
    </FieldFrame>
  );
}
