import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { changePassword, requestEmailChange } from '../../services/api/home';
import { useSession } from '../../services/session/useSession';
import { emailChangeSchema, passwordChangeSchema } from '../../../contract/rules/account';
import { EmailField, FormMessage, PasswordField } from '../login/authFormParts';
import { codesOfAnswer, codesOfIssues, isThrottled, type FieldCodes } from './formErrors';

type Outcome = { kind: 'done' } | { kind: 'failed'; text: string } | null;

/** Shared handling of a credential form's answer: field codes, throttle, anything else. */
function useOutcome() {
  const t = useT();
  const [codes, setCodes] = useState<FieldCodes>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const error = (field: string) => (codes[field] ? t(`validation-${codes[field]}`) : undefined);
  const fail = (failure: unknown) => {
    const answered = codesOfAnswer(failure);
    if (answered) setCodes(answered);
    else
      setOutcome({
        kind: 'failed',
        text: t(isThrottled(failure) ? 'mypage-too-many-attempts' : 'mypage-save-failed'),
      });
  };
  return { codes, setCodes, outcome, setOutcome, error, fail };
}

/** E-mail change: a link goes to the new address; the address changes when it is opened. */
export function EmailChangeForm({ currentEmail }: { currentEmail: string }) {
  const t = useT();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const { setCodes, outcome, setOutcome, error, fail } = useOutcome();
  const request = useMutation({
    mutationFn: () => requestEmailChange(password, newEmail),
    onSuccess: () => {
      setPassword('');
      setOutcome({ kind: 'done' });
    },
    onError: fail,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    const checked = emailChangeSchema.safeParse({
      current_password: password,
      new_email: newEmail,
    });
    setCodes(checked.success ? {} : codesOfIssues(checked.error.issues));
    if (checked.success) request.mutate();
  };
  return (
    <form noValidate onSubmit={submit}>
      <p>{t('mypage-email-current', { email: currentEmail })}</p>
      <EmailField
        id="mypage-new-email"
        label={t('mypage-email-new')}
        value={newEmail}
        onChange={setNewEmail}
        error={error('new_email')}
        autoComplete="email"
      />
      <PasswordField
        id="mypage-email-password"
        label={t('mypage-current-password')}
        value={password}
        onChange={setPassword}
        error={error('current_password')}
        autoComplete="current-password"
      />
      {outcome?.kind === 'done' && (
        <FormMessage kind="info">{t('mypage-email-sent', { email: newEmail.trim() })}</FormMessage>
      )}
      {outcome?.kind === 'failed' && <FormMessage>{outcome.text}</FormMessage>}
      <Button type="submit" disabled={request.isPending}>
        {t('mypage-email-submit')}
      </Button>
    </form>
  );
}

/**
 * Password change: the server ends every session and answers a fresh one, which replaces
 * this device's tokens, so only this device stays signed in.
 */
export function PasswordChangeForm() {
  const t = useT();
  const session = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const { setCodes, outcome, setOutcome, error, fail } = useOutcome();
  const change = useMutation({
    mutationFn: async () => {
      const tokens = await changePassword(current, next);
      await session.update(tokens);
    },
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setRepeat('');
      setOutcome({ kind: 'done' });
    },
    onError: fail,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    const checked = passwordChangeSchema().safeParse({
      current_password: current,
      new_password: next,
    });
    const codes = checked.success ? {} : codesOfIssues(checked.error.issues);
    if (!codes.new_password && repeat !== next) codes.new_password_repeat = 'password_mismatch';
    setCodes(codes);
    if (Object.keys(codes).length === 0) change.mutate();
  };
  return (
    <form noValidate onSubmit={submit}>
      <PasswordField
        id="mypage-current-password"
        label={t('mypage-current-password')}
        value={current}
        onChange={setCurrent}
        error={error('current_password')}
        autoComplete="current-password"
      />
      <PasswordField
        id="mypage-new-password"
        label={t('mypage-password-new')}
        hint={t('register-password-hint')}
        value={next}
        onChange={setNext}
        error={error('new_password')}
        autoComplete="new-password"
      />
      <PasswordField
        id="mypage-new-password-repeat"
        label={t('mypage-password-repeat')}
        value={repeat}
        onChange={setRepeat}
        error={error('new_password_repeat')}
        autoComplete="new-password"
      />
      {outcome?.kind === 'done' && (
        <FormMessage kind="info">{t('mypage-password-changed')}</FormMessage>
      )}
      {outcome?.kind === 'failed' && <FormMessage>{outcome.text}</FormMessage>}
      <Button type="submit" disabled={change.isPending}>
        {t('mypage-password-submit')}
      </Button>
    </form>
  );
}
