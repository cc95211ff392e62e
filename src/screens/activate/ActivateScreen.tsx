import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import type { ActivationLink } from '../../machines/registration';
import { SessionError } from '../../services/api/session';
import { useSession } from '../../services/session/useSession';
import {
  Actions,
  AuthCard,
  AuthPage,
  FormMessage,
  Links,
  PasswordField,
} from '../login/authFormParts';
import { providerLabelId } from '../login/SocialSignIn';
import { useSignInAndGo } from '../login/useSignInAndGo';
import { activationMachine } from '../registerTop/registrationSetup';
import { inspectOption } from '../../services/clientState/inspector';

/**
 * Why an attempt failed in a way the member can answer: the registration's password, or a new
 * sign-in with the provider it was made through.
 */
type Ask =
  | 'activation_password_required'
  | 'activation_password_mismatch'
  | 'activation_provider_required'
  | 'activation_provider_mismatch'
  | 'activation_provider_used'
  | 'activation_provider_failed';
const ASKS: readonly string[] = [
  'activation_password_required',
  'activation_password_mismatch',
  'activation_provider_required',
  'activation_provider_mismatch',
  'activation_provider_used',
];
const PROVIDER_ASKS: readonly Ask[] = [
  'activation_provider_required',
  'activation_provider_mismatch',
  'activation_provider_used',
  'activation_provider_failed',
];

/** What the screen says when a provider sign-in did not complete the registration. */
const PROVIDER_FAILURE_TEXTS: Partial<Record<Ask, string>> = {
  activation_provider_mismatch: 'activate-provider-mismatch',
  activation_provider_used: 'activate-provider-used',
  activation_provider_failed: 'activate-provider-failed',
};

/** The provider round trip that proves an activation link's registration (it signs nobody in). */
const activateWithProviderUrl = (provider: string, link: { token: string; email: string }) =>
  `/api/auth/activate/${encodeURIComponent(provider)}?${new URLSearchParams(link)}`;

/**
 * /activate?token=…&email=… — the link of the registration mail. Activates the account and
 * signs its member in at once (the session layer's activation callback, the browser's side of
 * GET /v1/user/confirm/{token}/{email}), then goes on as a sign-in does: to the page first
 * asked for, else the dashboard. A registration made with a password is completed only with
 * that password (the mailbox proves the address, the password who registered it): the server
 * asks for it, and the screen asks the member, then tries again. A registration made through a
 * provider (the link names it) is completed by a new sign-in with that provider from here: the
 * round trip comes back with the provider's assertion, which the screen takes out of the
 * address and activates with.
 */
export function Component() {
  const t = useT();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const link = { token: search.get('token') ?? '', email: search.get('email') ?? '' };
  const provider = search.get('provider');
  // Back from the provider: read once, for the address loses it at once.
  const [assertion] = useState(() => search.get('assertion') ?? undefined);
  const [attempt, setAttempt] = useState<{ number: number; password?: string }>({ number: 0 });
  const [ask, setAsk] = useState<Ask | null>(() => {
    if (search.get('proof') === 'failed') return 'activation_provider_failed';
    return provider && !assertion ? 'activation_provider_required' : null;
  });
  const [password, setPassword] = useState('');

  useEffect(() => {
    if (!assertion && search.get('proof') === null) return;
    const clean = new URLSearchParams({ ...link, ...(provider ? { provider } : {}) });
    void navigate(`/activate?${clean.toString()}`, { replace: true });
    // Once, on arrival from the provider.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const providerName = (id: string) => {
    const label = providerLabelId(id);
    return label ? t(label) : id;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '') return;
    setAsk(null);
    setAttempt((last) => ({ number: last.number + 1, password }));
  };

  return (
    <AuthPage>
      <h1>{t('activate-title')}</h1>
      <AuthCard>
        {ask && PROVIDER_ASKS.includes(ask) && provider ? (
          <>
            {ask !== 'activation_provider_required' && (
              <FormMessage>
                {t(PROVIDER_FAILURE_TEXTS[ask]!, { provider: providerName(provider) })}
              </FormMessage>
            )}
            <p>{t('activate-provider-lead', { provider: providerName(provider) })}</p>
            <Links>
              <a href={activateWithProviderUrl(provider, link)}>
                {t('activate-with-provider', { provider: providerName(provider) })}
              </a>
            </Links>
            <p>{t('activate-provider-not-mine')}</p>
            <Links>
              <Link to="/register-top?register=true">{t('login-register')}</Link>
            </Links>
          </>
        ) : ask && !PROVIDER_ASKS.includes(ask) ? (
          <>
            {ask === 'activation_password_mismatch' && (
              <FormMessage>{t('activate-password-mismatch')}</FormMessage>
            )}
            <p>{t('activate-password-lead')}</p>
            <form onSubmit={submit} noValidate>
              <PasswordField
                id="activate-password"
                label={t('activate-password')}
                value={password}
                onChange={setPassword}
                autoComplete="current-password"
              />
              <Actions>
                <Button type="submit">{t('activate-password-submit')}</Button>
              </Actions>
            </form>
            <p>{t('activate-password-not-mine')}</p>
            <Links>
              <Link to="/register-top?register=true">{t('login-register')}</Link>
            </Links>
          </>
        ) : (
          <Attempt
            key={attempt.number}
            link={
              attempt.password !== undefined
                ? { ...link, password: attempt.password }
                : assertion && attempt.number === 0
                  ? { ...link, assertion }
                  : link
            }
            onAsked={setAsk}
          />
        )}
      </AuthCard>
    </AuthPage>
  );
}

/** One activation call with what the member gave, from start to its outcome. */
function Attempt({ link, onAsked }: { link: ActivationLink; onAsked: (ask: Ask) => void }) {
  const t = useT();
  const session = useSession();
  const { goOn } = useSignInAndGo();
  const [machine] = useState(() =>
    activationMachine(async (given) => {
      try {
        await session.activate(given);
      } catch (error) {
        if (error instanceof SessionError && ASKS.includes(error.code)) onAsked(error.code as Ask);
        throw error;
      }
    }),
  );
  const [snapshot, send] = useMachine(machine, inspectOption());
  const activated = snapshot.matches('activated');

  useEffect(() => {
    send({ type: 'ACTIVATE', link });
    // The attempt is made once, with what it was started with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [send]);

  useEffect(() => {
    if (activated) goOn();
    // goOn changes with the nav slice it uses up; the way on is taken once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activated]);

  return snapshot.matches('activationFailed') ? (
    <>
      <FormMessage>{t('activate-failed')}</FormMessage>
      <p>{t('activate-failed-hint')}</p>
      <Links>
        <Link to="/register-top?register=true">{t('login-register')}</Link>
        <Link to="/login">{t('register-login')}</Link>
      </Links>
    </>
  ) : (
    <p role="status" aria-busy="true">
      {t(activated ? 'activate-done' : 'activate-working')}
    </p>
  );
}
