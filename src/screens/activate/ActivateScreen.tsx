import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
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
import { useSignInAndGo } from '../login/useSignInAndGo';
import { activationMachine } from '../registerTop/registrationSetup';
import { inspectOption } from '../../services/clientState/inspector';

/** Why an attempt failed in a way the member can answer: the registration's password. */
type PasswordAsk = 'activation_password_required' | 'activation_password_mismatch';
const PASSWORD_ASKS: readonly string[] = [
  'activation_password_required',
  'activation_password_mismatch',
];

/**
 * /activate?token=…&email=… — the link of the registration mail. Activates the account and
 * signs its member in at once (the session layer's activation callback, the browser's side of
 * GET /v1/user/confirm/{token}/{email}), then goes on as a sign-in does: to the page first
 * asked for, else the dashboard. A registration made with a password is completed only with
 * that password (the mailbox proves the address, the password who registered it): the server
 * asks for it, and the screen asks the member, then tries again. Members registered through a
 * social provider have none and go straight on.
 */
export function Component() {
  const t = useT();
  const [search] = useSearchParams();
  const link = { token: search.get('token') ?? '', email: search.get('email') ?? '' };
  const [attempt, setAttempt] = useState<{ number: number; password?: string }>({ number: 0 });
  const [ask, setAsk] = useState<PasswordAsk | null>(null);
  const [password, setPassword] = useState('');

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
        {ask ? (
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
            link={attempt.password === undefined ? link : { ...link, password: attempt.password }}
            onPasswordAsked={setAsk}
          />
        )}
      </AuthCard>
    </AuthPage>
  );
}

/** One activation call with what the member gave, from start to its outcome. */
function Attempt({
  link,
  onPasswordAsked,
}: {
  link: ActivationLink;
  onPasswordAsked: (ask: PasswordAsk) => void;
}) {
  const t = useT();
  const session = useSession();
  const { goOn } = useSignInAndGo();
  const [machine] = useState(() =>
    activationMachine(async (given) => {
      try {
        await session.activate(given);
      } catch (error) {
        if (error instanceof SessionError && PASSWORD_ASKS.includes(error.code)) {
          onPasswordAsked(error.code as PasswordAsk);
        }
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
