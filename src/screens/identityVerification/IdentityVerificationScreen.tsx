import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { AppStoreLinks } from '../../components/appStore/AppStoreLinks';
import { externalLinks, NEW_TAB_LINK } from '../../components/externalLinks';
import { Button } from '../../components/ui/Button';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import {
  AppAbsentError,
  identityVerificationMachine,
  type LoadedStatus,
} from '../../machines/identityVerification';
import {
  createIdentityChallenge,
  fetchIdentityStatus,
  registerCertificate,
} from '../../services/api/deathDetection';
import { bridge, BridgeError } from '../../services/bridge';
import { isHandledBySession } from '../../services/http';
import { formatTokyoDate } from '../deathConfirmation/dates';
import { Page, Panel } from '../../components/ui/pageLayout';
import { inspectOption } from '../../services/clientState/inspector';

/** The status, and whether the app answers the bridge's check status (absent: a plain browser). */
async function loadStatus(): Promise<LoadedStatus> {
  const identity = await fetchIdentityStatus();
  // Outside the app this fails at once and logs "native error" (no app answers the bridge).
  const appPresent = await bridge.call('checkStatus', {}).then(
    () => true,
    () => false,
  );
  return {
    authStatus: identity.authStatus,
    notAfter: identity.certificate?.notAfter ?? null,
    revokedReason: identity.revokedReason,
    appPresent,
  };
}

/** Challenge from the server, certificate and signature from the app, back to the server. */
async function registerWithApp() {
  const { challengeId, challenge, mailAddress } = await createIdentityChallenge();
  try {
    const answer = await bridge.call('startCertificateRegistration', { mailAddress, challenge });
    await registerCertificate({ challengeId, ...answer });
  } catch (error) {
    if (error instanceof BridgeError && error.reason === 'UNAVAILABLE') throw new AppAbsentError();
    throw error;
  }
}

/** /identity-verification: the member's certificate, registered through the app. */
export function Component() {
  const t = useT();
  const machine = useMemo(
    () =>
      identityVerificationMachine.provide({
        actors: {
          loadStatus: fromPromise(loadStatus),
          registerCertificate: fromPromise(registerWithApp),
        },
        actions: {
          notifyRegistrationFailure: (_, { error }) => {
            console.error('certificate registration', error);
            void showToast(t('identity-registration-failed'), 'error');
          },
          reportLoadFailure: (_, { error }) => {
            if (!isHandledBySession(error)) console.error('identity status', error);
          },
        },
      }),
    [t],
  );
  const [snapshot, send] = useMachine(machine, inspectOption());
  const status = snapshot.context.status;
  const start = (label: string) => (
    <Button type="button" onClick={() => send({ type: 'START' })}>
      {label}
    </Button>
  );

  return (
    <Page>
      <h1>{t('screen-identity-verification')}</h1>
      <Panel aria-live="polite">
        {snapshot.matches('loading') && <p>{t('identity-loading')}</p>}
        {snapshot.matches('failed') && (
          <>
            <p role="alert">{t('identity-load-failed')}</p>
            <Button type="button" onClick={() => send({ type: 'RETRY' })}>
              {t('identity-retry')}
            </Button>
          </>
        )}
        {snapshot.matches('registering') && <p>{t('identity-registering')}</p>}
        {snapshot.matches('ACTIVE') && status && (
          <>
            <p>
              {t('identity-active', {
                until: status.notAfter ? formatTokyoDate(status.notAfter) : '',
              })}
            </p>
            {status.appPresent && start(t('identity-start-new-device'))}
          </>
        )}
        {snapshot.matches('INITIAL') && (
          <>
            <p>{t('identity-initial')}</p>
            {start(t('identity-start'))}
          </>
        )}
        {snapshot.matches('PROGRESS') && (
          <>
            <p>{t('identity-progress')}</p>
            {start(t('identity-start-again'))}
          </>
        )}
        {snapshot.matches('REVOKED') && (
          <>
            <p>{t(`identity-revoked-${status?.revokedReason ?? 'revoked'}`)}</p>
            {start(t('identity-start-again'))}
          </>
        )}
        {snapshot.matches('needsApp') && (
          <>
            <p>{t(`identity-status-${status?.authStatus ?? 'INITIAL'}`)}</p>
            <p>{t('identity-needs-app')}</p>
            <AppStoreLinks />
          </>
        )}
        <p>
          <a
            href={externalLinks.identityVerificationHelp}
            {...NEW_TAB_LINK}
            aria-label={`${t('identity-help')} ${t('menu-opens-new-tab')}`}
          >
            {t('identity-help')}
          </a>
        </p>
      </Panel>
    </Page>
  );
}
