import { useEffect, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { formatTokyoInstantDate } from '../../components/ui/calendarDate';
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

/**
 * The right password of a member whose death was confirmed: what happened and when (Asia/Tokyo),
 * and the way back the server has just mailed.
 */
function MemorializedNotice({ since, byProvider }: { since: string | null; byProvider: boolean }) {
  const t = useT();
  const date = since ? formatTokyoInstantDate(new Date(since)) : '';
  return (
    <>
      <FormMessage kind="info">{t('login-error-account_memorialized', { date })}</FormMessage>
      <p>
        {t(byProvider ? 'login-memorialized-way-back-provider' : 'login-memorialized-way-back')}
      </p>
      <p>{t('login-memorialized-no-mail')}</p>
    </>
  );
}

/** /login — email and password sign-in. */
export function Component() {
  const t = useT();
  const [search] = useSearchParams();
  const { status } = useSession();
  const nav = useSlice('nav');
  const {
    submit: signIn,
    submitting,
    failure,
    memorializedSince,
    goOn,
  } = useSignInForm(failureFromQuery(search), search.get('since'));
  // Opened from the mail sent when the account was locked: this sign-in is not held back.
  const unlockToken = search.get('unlock') ?? undefined;

  // Already signed in (another tab, or back-navigation): go on at once.
  useEffect(() => {
    if (status === 'authenticated' && !submitting) goOn();
  }, [status, submitting, goOn]);

  // The fields are left to the browser, so what a visitor typed into the server's page before
  // the app hydrated it is still there: they are read when the form is sent.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = (id: string) => {
      const element = event.currentTarget.elements.namedItem(id);
      return element instanceof HTMLInputElement ? element.value : '';
    };
    void signIn({
      username: field('login-email').trim(),
      password: field('login-password'),
      unlockToken,
    });
  };

  return (
    <AuthPage>
      <h1>{t('login-title')}</h1>
      <AuthCard>
        <p>{t(unlockToken ? 'login-unlock-lead' : 'login-lead')}</p>
        {failure === SIGN_IN_FAILURE_TEXT.account_memorialized ? (
          <MemorializedNotice
            since={memorializedSince}
            byProvider={search.get('error') === 'OAuthCallback'}
          />
        ) : (
          failure && <FormMessage>{t(failure)}</FormMessage>
        )}
        {failure === SIGN_IN_FAILURE_TEXT.account_locked && !unlockToken && (
          <FormMessage kind="info">{t('login-error-account_locked-mailed')}</FormMessage>
        )}
        {/* Sent before the app has hydrated the server's page, it posts nothing: the fields have no
            names. */}
        <form method="post" onSubmit={submit} noValidate>
          <EmailField
            id="login-email"
            label={t('login-email')}
            autoComplete="username"
            disabled={submitting}
          />
          <PasswordField
            id="login-password"
            label={t('login-password')}
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
