import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { useSlice } from '../../services/clientState/clientState';
import { useSession } from '../../services/session/useSession';
import {
  Actions,
  AuthCard,
  AuthPage,
  EmailField,
  FormMessage,
  Links,
  PasswordField,
} from './authFormParts';
import { failureFromQuery, SIGN_IN_FAILURE_TEXT } from './signInFailure';
import { afterLoginTarget } from './redirect';
import { SocialSignIn } from './SocialSignIn';
import { useSignInForm } from './useSignInAndGo';

/** /login — email and password sign-in (spec §2, §5, §8). */
export function Component() {
  const t = useT();
  const [search] = useSearchParams();
  const { status } = useSession();
  const nav = useSlice('nav');
  const { submit: signIn, submitting, failure, goOn } = useSignInForm(failureFromQuery(search));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Opened from the mail sent when the account was locked: this sign-in is not held back.
  const unlockToken = search.get('unlock') ?? undefined;

  // Already signed in (another tab, or back-navigation): go on at once.
  useEffect(() => {
    if (status === 'authenticated' && !submitting) goOn();
  }, [status, submitting, goOn]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void signIn({ username: email.trim(), password, unlockToken });
  };

  return (
    <AuthPage>
      <h1>{t('login-title')}</h1>
      <AuthCard>
        <p>{t(unlockToken ? 'login-unlock-lead' : 'login-lead')}</p>
        {failure && <FormMessage>{t(failure)}</FormMessage>}
        {failure === SIGN_IN_FAILURE_TEXT.account_locked && !unlockToken && (
          <FormMessage kind="info">{t('login-error-account_locked-mailed')}</FormMessage>
        )}
        {/* Sent before the app has hydrated the server's page, it puts nothing in the URL. */}
        <form method="post" onSubmit={submit} noValidate>
          <EmailField
            id="login-email"
            label={t('login-email')}
            value={email}
            onChange={setEmail}
            autoComplete="username"
            disabled={submitting}
          />
          <PasswordField
            id="login-password"
            label={t('login-password')}
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            disabled={submitting}
          />
          <Actions>
            <Button type="submit" disabled={submitting}>
              {t(submitting ? 'login-submitting' : 'login-submit')}
            </Button>
          </Actions>
        </form>
        <SocialSignIn
          callbackUrl={afterLoginTarget(nav.postLoginRedirectUrl, search.get('callbackUrl'))}
        />
        <Links>
          <Link to="/password-reset">{t('login-forgot-password')}</Link>
          <span>
            {t('login-no-account')}{' '}
            <Link to="/register-top?register=true">{t('login-register')}</Link>
          </span>
        </Links>
      </AuthCard>
    </AuthPage>
  );
}
