import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { unregisterThisDevice } from '../../services/bridge/deviceToken';
import { useSession } from '../../services/session/useSession';
import { Actions, AuthCard, AuthPage } from './authFormParts';

/**
 * /logout — asks once, then signs out: the user, the access token and the refresh token
 * are cleared here and the refresh family is revoked on the server.
 */
export function Component() {
  const t = useT();
  const navigate = useNavigate();
  const { signOut, status } = useSession();
  const [leaving, setLeaving] = useState(false);

  const logOut = async () => {
    setLeaving(true);
    // The device's push token goes while the member's token can still delete it.
    await unregisterThisDevice().catch((error: unknown) => console.error('device token', error));
    await signOut();
    void navigate('/login', { replace: true });
  };

  return (
    <AuthPage>
      <h1>{t('logout')}</h1>
      <AuthCard>
        <p>{t(status === 'authenticated' ? 'logout-question' : 'logout-done')}</p>
        <Actions>
          {status === 'authenticated' ? (
            <Button type="button" disabled={leaving} onClick={() => void logOut()}>
              {t('logout')}
            </Button>
          ) : (
            <ButtonLink to="/login">{t('login-title')}</ButtonLink>
          )}
          <ButtonLink to="/" $variant="secondary">
            {t('register-to-top')}
          </ButtonLink>
        </Actions>
      </AuthCard>
    </AuthPage>
  );
}
