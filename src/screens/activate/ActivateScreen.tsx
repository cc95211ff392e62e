import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useT } from '../../i18n/useT';
import { useSession } from '../../services/session/useSession';
import { AuthCard, AuthPage, FormMessage, Links } from '../login/authFormParts';
import { useSignInAndGo } from '../login/useSignInAndGo';
import { activationMachine } from '../registerTop/registrationSetup';
import { inspectOption } from '../../services/clientState/inspector';

/**
 * /activate?token=…&email=… — the link of the registration mail. Activates the account and
 * signs its member in at once (the session layer's activation callback, the browser's side of
 * GET /v1/user/confirm/{token}/{email}), then goes on as a sign-in does: to the page first
 * asked for, else the dashboard. Members registered through a social provider alike.
 */
export function Component() {
  const t = useT();
  const [search] = useSearchParams();
  const session = useSession();
  const { goOn } = useSignInAndGo();
  const [machine] = useState(() => activationMachine(session.activate));
  const [snapshot, send] = useMachine(machine, inspectOption());
  const activated = snapshot.matches('activated');

  useEffect(() => {
    send({
      type: 'ACTIVATE',
      link: { token: search.get('token') ?? '', email: search.get('email') ?? '' },
    });
  }, [search, send]);

  useEffect(() => {
    if (activated) goOn();
    // goOn changes with the nav slice it uses up; the way on is taken once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activated]);

  return (
    <AuthPage>
      <h1>{t('activate-title')}</h1>
      <AuthCard aria-busy={!snapshot.matches('activationFailed')}>
        {snapshot.matches('activationFailed') ? (
          <>
            <FormMessage>{t('activate-failed')}</FormMessage>
            <p>{t('activate-failed-hint')}</p>
            <Links>
              <Link to="/register-top?register=true">{t('login-register')}</Link>
              <Link to="/login">{t('register-login')}</Link>
            </Links>
          </>
        ) : (
          <p role="status">{t(activated ? 'activate-done' : 'activate-working')}</p>
        )}
      </AuthCard>
    </AuthPage>
  );
}
