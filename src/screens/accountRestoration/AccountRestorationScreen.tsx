import { AxiosError } from 'axios';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { formatTokyoInstantDate } from '../../components/ui/calendarDate';
import { useT } from '../../i18n/useT';
import {
  fetchRestorationLink,
  proveRestoration,
  restoreAccount,
  restoreWithProviderUrl,
  type AccountRestoration,
  type RestorationLinkState,
} from '../../services/api/deathDetection';
import { providerLabelId } from '../login/SocialSignIn';
import {
  Actions,
  AuthCard,
  AuthPage,
  FormMessage,
  Links,
  PasswordField,
} from '../login/authFormParts';

/** The refusals the screen words; anything else (the network) asks to try again. */
const KNOWN_FAILURES = new Set([
  'restoration_link_invalid',
  'nothing_to_restore',
  'restoration_identity_mismatch',
]);

type ErrorData = { code?: string; errors?: { field: string; code: string }[] } | undefined;
const dataOf = (caught: unknown) =>
  (caught instanceof AxiosError ? caught.response?.data : undefined) as ErrorData;
const failureOf = (caught: unknown) => {
  const code = dataOf(caught)?.code;
  return code && KNOWN_FAILURES.has(code) ? `restore-error-${code}` : 'restore-error-failed';
};

/**
 * /restore-account?token= — from the mail sent when a member whose death was confirmed signed
 * in. The link is checked at once: a used or expired one says so and asks for nothing. Then
 * the password, or a new sign-in with the member's provider (which comes back here with
 * `assertion`, proves the link, and is taken out of the address), restores the account; then
 * what had already been delivered is listed.
 */
export function Component() {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [link, setLink] = useState<RestorationLinkState | null>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const [failure, setFailure] = useState<string | null>(
    token ? null : 'restore-error-restoration_link_invalid',
  );
  const [proofFailure, setProofFailure] = useState<string | null>(
    search.get('proof') === 'failed' ? 'restore-error-proof_failed' : null,
  );
  const [sending, setSending] = useState(false);
  const [restored, setRestored] = useState<AccountRestoration | null>(null);

  // Opened from the mail, or back from the provider: the assertion is spent on the proof and
  // leaves the address (and the history) at once; then the link says what it needs.
  // Read once: the address loses it at once, and that must not start the check again.
  const [assertion] = useState(() => search.get('assertion'));
  useEffect(() => {
    if (!token) return;
    let current = true;
    void (async () => {
      if (assertion) {
        navigate(`/restore-account?${new URLSearchParams({ token })}`, { replace: true });
        try {
          const proven = await proveRestoration(token, assertion);
          if (current) setLink(proven);
          return;
        } catch (caught) {
          if (!current) return;
          if (dataOf(caught)?.code !== 'restoration_identity_mismatch') {
            setProofFailure('restore-error-proof_failed');
          } else setProofFailure('restore-error-restoration_identity_mismatch');
        }
      }
      try {
        const needs = await fetchRestorationLink(token);
        if (current) setLink(needs);
      } catch (caught) {
        if (current) setFailure(failureOf(caught));
      }
    })();
    return () => {
      current = false;
    };
  }, [token, assertion, navigate]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const withPassword = !link?.proven;
    if (withPassword && password === '') {
      setPasswordError(t('validation-required'));
      return;
    }
    setSending(true);
    setFailure(null);
    setPasswordError(undefined);
    try {
      setRestored(await restoreAccount(token, withPassword ? password : undefined));
    } catch (caught) {
      if (dataOf(caught)?.errors?.some((error) => error.code === 'password_incorrect')) {
        setPasswordError(t('restore-error-password_incorrect'));
      } else {
        setFailure(failureOf(caught));
      }
    }
    setSending(false);
  };

  if (restored) return <Restored restored={restored} />;
  const providerName = (id: string) => {
    const label = providerLabelId(id);
    return label ? t(label) : id;
  };
  const providers = link?.providers.filter((id) => providerLabelId(id) !== null) ?? [];
  const names = providers.map(providerName).join(t('restore-provider-separator'));
  // A refusal of the link itself leaves nothing to type; a network failure lets the member retry.
  const usable = link !== null && (failure === null || failure === 'restore-error-failed');
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
        {token !== '' && link === null && failure === null && (
          <p role="status">{t('restore-checking')}</p>
        )}
        {usable && (
          <>
            {proofFailure && <FormMessage>{t(proofFailure)}</FormMessage>}
            {link.proven ? (
              <FormMessage kind="info">{t('restore-proven')}</FormMessage>
            ) : (
              <p>
                {link.hasPassword
                  ? t('restore-lead')
                  : t('restore-lead-provider', { provider: names })}
              </p>
            )}
            <p>{t('restore-what')}</p>
            <form onSubmit={submit} noValidate>
              {!link.proven && link.hasPassword && (
                <PasswordField
                  id="restore-password"
                  label={t('restore-password')}
                  value={password}
                  onChange={setPassword}
                  error={passwordError}
                  autoComplete="current-password"
                  disabled={sending}
                />
              )}
              {(link.proven || link.hasPassword) && (
                <Actions>
                  <Button type="submit" disabled={sending}>
                    {t(sending ? 'restore-submitting' : 'restore-submit')}
                  </Button>
                </Actions>
              )}
            </form>
            {!link.proven && providers.length > 0 && (
              <>
                {link.hasPassword && <p>{t('restore-lead-either', { provider: names })}</p>}
                <Links>
                  {providers.map((id) => (
                    <a key={id} href={restoreWithProviderUrl(id, token)}>
                      {t('restore-with-provider', { provider: providerName(id) })}
                    </a>
                  ))}
                </Links>
              </>
            )}
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
