import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import {
  Actions,
  AuthCard,
  AuthPage,
  FormMessage,
  Links,
  PasswordField,
} from '../login/authFormParts';
import { SocialSignIn } from '../login/SocialSignIn';
import { useSignInForm } from '../login/useSignInAndGo';
import { liveRegistrationMachine } from '../registerTop/registrationSetup';
import { inspectOption } from '../../services/clientState/inspector';

/**
 * /activate?token=…&email=… — the link of the registration mail. Activates the account
 * (GET /v1/user/confirm/{token}/{email}), then signs in with the password the member just
 * chose: the session layer starts sessions from credentials only (docs/client-auth.md).
 * A member registered through a social provider signs in with that provider instead.
 */
export function Component() {
  const t = useT();
  const [search] = useSearchParams();
  const email = search.get('email') ?? '';
  const [snapshot, send] = useMachine(liveRegistrationMachine, inspectOption());
  const { submit, submitting: signingIn, failure } = useSignInForm();
  const [password, setPassword] = useState('');

  useEffect(() => {
    send({ type: 'ACTIVATE', link: { token: search.get('token') ?? '', email } });
  }, [search, email, send]);

  const signIn = (event: FormEvent) => {
    event.preventDefault();
    void submit({ username: email, password });
  };

  return (
    <AuthPage>
      <h1>{t('activate-title')}</h1>
      <AuthCard aria-busy={snapshot.matches('activating')}>
        {(snapshot.matches('idle') || snapshot.matches('activating')) && (
          <p role="status">{t('activate-working')}</p>
        )}
        {snapshot.matches('activationFailed') && (
          <>
            <FormMessage>{t('activate-failed')}</FormMessage>
            <p>{t('activate-failed-hint')}</p>
            <Links>
              <Link to="/register-top?register=true">{t('login-register')}</Link>
              <Link to="/login">{t('register-login')}</Link>
            </Links>
          </>
        )}
        {snapshot.matches('activated') && (
          <>
            <FormMessage kind="info">{t('activate-done')}</FormMessage>
            <p>{t('activate-sign-in')}</p>
            {failure && <FormMessage>{t(failure)}</FormMessage>}
            <form onSubmit={signIn} noValidate>
              <p>{t('activate-email', { email })}</p>
              <input type="hidden" name="username" autoComplete="username" value={email} />
              <PasswordField
                id="activate-password"
                label={t('login-password')}
                value={password}
                onChange={setPassword}
                autoComplete="current-password"
                disabled={signingIn}
              />
              <Actions>
                <Button type="submit" disabled={signingIn}>
                  {t(signingIn ? 'login-submitting' : 'login-submit')}
                </Button>
              </Actions>
            </form>
            {/* Who registered with a social provider has no password: they sign in there. */}
            <SocialSignIn callbackUrl="/dashboard" leadId="activate-sign-in-social" />
          </>
        )}
      </AuthCard>
    </AuthPage>
  );
}
