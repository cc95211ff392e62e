import { AxiosError } from 'axios';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { formatTokyoInstantDate } from '../../components/ui/calendarDate';
import { useT } from '../../i18n/useT';
import { restoreAccount, type AccountRestoration } from '../../services/api/deathDetection';
import {
  Actions,
  AuthCard,
  AuthPage,
  FormMessage,
  Links,
  PasswordField,
} from '../login/authFormParts';

/** The refusals the screen words; anything else (the network) asks to try again. */
const KNOWN_FAILURES = new Set(['restoration_link_invalid', 'nothing_to_restore']);

/**
 * /restore-account?token= — from the mail sent when a member whose death was confirmed signed
 * in: their password restores the account; then what had already been delivered is listed.
 */
export function Component() {
  const t = useT();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const [failure, setFailure] = useState<string | null>(
    token ? null : 'restore-error-restoration_link_invalid',
  );
  const [sending, setSending] = useState(false);
  const [restored, setRestored] = useState<AccountRestoration | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password === '') {
      setPasswordError(t('validation-required'));
      return;
    }
    setSending(true);
    setFailure(null);
    setPasswordError(undefined);
    try {
      setRestored(await restoreAccount(token, password));
    } catch (caught) {
      const data = (caught instanceof AxiosError ? caught.response?.data : undefined) as
        { code?: string; errors?: { field: string; code: string }[] } | undefined;
      if (data?.errors?.some((error) => error.code === 'password_incorrect')) {
        setPasswordError(t('restore-error-password_incorrect'));
      } else {
        setFailure(
          data?.code && KNOWN_FAILURES.has(data.code)
            ? `restore-error-${data.code}`
            : 'restore-error-failed',
        );
      }
    }
    setSending(false);
  };

  if (restored) return <Restored restored={restored} />;
  return (
    <AuthPage>
      <h1>{t('restore-title')}</h1>
      <AuthCard>
        {failure && <FormMessage>{t(failure)}</FormMessage>}
        {failure === 'restore-error-nothing_to_restore' && (
          <Links>
            <Link to="/login">{t('restore-to-login')}</Link>
          </Links>
        )}
        {token !== '' && failure !== 'restore-error-nothing_to_restore' && (
          <>
            <p>{t('restore-lead')}</p>
            <p>{t('restore-what')}</p>
            <form onSubmit={submit} noValidate>
              <PasswordField
                id="restore-password"
                label={t('restore-password')}
                value={password}
                onChange={setPassword}
                error={passwordError}
                autoComplete="current-password"
                disabled={sending}
              />
              <Actions>
                <Button type="submit" disabled={sending}>
                  {t(sending ? 'restore-submitting' : 'restore-submit')}
                </Button>
              </Actions>
            </form>
          </>
        )}
      </AuthCard>
    </AuthPage>
  );
}

/** What the restoration did, and what it could not take back. */
function Restored({ restored }: { restored: AccountRestoration }) {
  const t = useT();
  const names = (list: string[]) => list.join(t('restore-list-separator'));
  const { letters, endingNoteSections, notified } = restored.delivered;
  const nothing = letters.length + endingNoteSections.length + notified.length === 0;
  return (
    <AuthPage>
      <h1>{t('restore-done-title')}</h1>
      <AuthCard>
        <FormMessage kind="info">{t('restore-done')}</FormMessage>
        {restored.lettersStopped > 0 && (
          <p>{t('restore-stopped', { count: String(restored.lettersStopped) })}</p>
        )}
        <section aria-labelledby="restore-delivered-heading">
          <h2 id="restore-delivered-heading">{t('restore-delivered-heading')}</h2>
          {nothing ? (
            <p>{t('restore-delivered-none')}</p>
          ) : (
            <>
              <p>{t('restore-delivered-explained')}</p>
              <ul>
                {letters.map((letter) => (
                  <li key={`${letter.title}-${letter.deliveredAt}`}>
                    {t('restore-delivered-letter', {
                      title: letter.title,
                      recipients: names(letter.recipients),
                      date: formatTokyoInstantDate(new Date(letter.deliveredAt)),
                    })}
                  </li>
                ))}
                {endingNoteSections.map((opened) => (
                  <li key={opened.section}>
                    {t('restore-delivered-section', {
                      section: t(`endingnote-${opened.section}`),
                      readers: names(opened.readers),
                    })}
                  </li>
                ))}
                {notified.length > 0 && (
                  <li>{t('restore-delivered-notified', { names: names(notified) })}</li>
                )}
              </ul>
            </>
          )}
        </section>
        <Links>
          <Link to="/login">{t('restore-to-login')}</Link>
        </Links>
      </AuthCard>
    </AuthPage>
  );
}
