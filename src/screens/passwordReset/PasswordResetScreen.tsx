import { AxiosError } from 'axios';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { fieldErrorsOf } from '../../machines/registration';
import { auth } from '../../services/api/auth';
import { emailSchema, passwordSchema } from '../../../contract/rules/account';
import {
  Actions,
  AuthCard,
  AuthPage,
  EmailField,
  FormMessage,
  Links,
  PasswordField,
} from '../login/authFormParts';
import { ResendMail } from '../login/ResendMail';

type Phase = 'editing' | 'sending' | 'done';

/** The first problem the shared rule finds in a value, as a `validation-<code>` id. */
function problemOf(schema: typeof emailSchema | typeof passwordSchema, value: string) {
  const result = schema.safeParse(value);
  return result.success ? undefined : `validation-${result.error.issues[0]!.message}`;
}

/** Step one: the address to mail a reset link to (always answered the same way). */
function RequestForm() {
  const t = useT();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [phase, setPhase] = useState<Phase>('editing');
  const [failed, setFailed] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = problemOf(emailSchema, email);
    setError(problem && t(problem));
    if (problem) return;
    setPhase('sending');
    setFailed(false);
    try {
      await auth.requestPasswordReset(email.trim());
      setPhase('done');
    } catch {
      setFailed(true);
      setPhase('editing');
    }
  };

  if (phase === 'done') {
    return (
      <>
        <FormMessage kind="info">{t('password-reset-sent')}</FormMessage>
        <p>{t('mail-resend-lead')}</p>
        <ResendMail resend={() => auth.requestPasswordReset(email.trim())} />
      </>
    );
  }
  return (
    <>
      <p>{t('password-reset-request-lead')}</p>
      {failed && <FormMessage>{t('error-unexpected')}</FormMessage>}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <EmailField
          id="password-reset-email"
          label={t('password-reset-email')}
          value={email}
          onChange={setEmail}
          error={error}
          autoComplete="email"
          disabled={phase === 'sending'}
        />
        <Actions>
          <Button type="submit" disabled={phase === 'sending'}>
            {t(phase === 'sending' ? 'password-reset-sending' : 'password-reset-send')}
          </Button>
        </Actions>
      </form>
    </>
  );
}

/** Step two, from the mailed link: the new password. */
function NewPasswordForm({ token }: { token: string }) {
  const t = useT();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [phase, setPhase] = useState<Phase>('editing');
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = problemOf(passwordSchema, password);
    setError(problem && t(problem));
    if (problem) return;
    setPhase('sending');
    setFailure(null);
    try {
      await auth.confirmPasswordReset(token, password);
      setPhase('done');
      return;
    } catch (caught) {
      const response = caught instanceof AxiosError ? caught.response : undefined;
      const data = response?.data as { code?: string; errors?: { field: string; code: string }[] };
      if (response?.status === 422 && data.errors) {
        setError(t(`validation-${fieldErrorsOf(data.errors).password ?? 'required'}`));
      } else {
        setFailure(data?.code === 'reset_invalid' ? 'password-reset-invalid' : 'error-unexpected');
      }
    }
    setPhase('editing');
  };

  if (phase === 'done') {
    return (
      <>
        <FormMessage kind="info">{t('password-reset-done')}</FormMessage>
        <Links>
          <Link to="/login">{t('password-reset-to-login')}</Link>
        </Links>
      </>
    );
  }
  return (
    <>
      <p>{t('password-reset-new-lead')}</p>
      {failure && <FormMessage>{t(failure)}</FormMessage>}
      {failure === 'password-reset-invalid' && (
        <Links>
          <Link to="/password-reset">{t('password-reset-request-again')}</Link>
        </Links>
      )}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <PasswordField
          id="password-reset-password"
          label={t('password-reset-new-password')}
          hint={t('register-password-hint')}
          value={password}
          onChange={setPassword}
          error={error}
          autoComplete="new-password"
          disabled={phase === 'sending'}
        />
        <Actions>
          <Button type="submit" disabled={phase === 'sending'}>
            {t(phase === 'sending' ? 'password-reset-saving' : 'password-reset-save')}
          </Button>
        </Actions>
      </form>
    </>
  );
}

/** /password-reset — the request form, or with `?token=` the new-password form. */
export function Component() {
  const t = useT();
  const [search] = useSearchParams();
  const token = search.get('token');
  return (
    <AuthPage>
      <h1>{t('password-reset-title')}</h1>
      <AuthCard>{token ? <NewPasswordForm key={token} token={token} /> : <RequestForm />}</AuthCard>
    </AuthPage>
  );
}
