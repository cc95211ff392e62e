import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { deathDetectionMachine, type SuspectedUser } from '../../machines/deathDetection';
import {
  cancelDeathSuspicion,
  fetchDeathSuspectedUser,
  fetchIdentityStatus,
} from '../../services/api/deathDetection';
import { isAppWebView } from '../../services/bridge';
import { registerThisDevice } from '../../services/bridge/deviceToken';
import { deathConfirmationStorage } from '../../services/persistence/deathConfirmationStorage';
import { tokyoToday } from '../../validation/tokyoDate';
import { AppStoreLinks } from '../appStore/AppStoreLinks';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';

const Actions = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
  margin-top: 24px;
`;

/** The death-suspected user of the answer, or null when nobody is suspected. */
async function findSuspectedUser(): Promise<SuspectedUser | null> {
  const answer = await fetchDeathSuspectedUser();
  if (!answer.userId) return null;
  return {
    userId: answer.userId,
    memorialPageId: answer.memorialPageId,
    lastName: answer.lastName ?? '',
    firstName: answer.firstName ?? '',
    state: answer.state ?? 'suspected',
  };
}

/**
 * The header area's death-detection flow for a signed-in member (spec §4): runs the
 * deathDetection statechart once per member and shows its two modals. Inside the app it also
 * registers this device's push token.
 */
export function DeathDetectionModals({ userId }: { userId: string }) {
  const t = useT();
  const navigate = useNavigate();
  const machine = useMemo(
    () =>
      deathDetectionMachine.provide({
        actors: {
          findSuspectedUser: fromPromise(findSuspectedUser),
          cancelSuspicion: fromPromise(({ input }) => cancelDeathSuspicion(input.userId)),
          readIdentityStatus: fromPromise(async () => ({
            authStatus: (await fetchIdentityStatus()).authStatus as string,
          })),
        },
        actions: {
          rememberShown: (_, { date }) => deathConfirmationStorage.rememberStepsModalShown(date),
          openDeathConfirmation: (_, { suspect }) => {
            deathConfirmationStorage.start({
              userId: suspect.userId,
              name: t('death-person-name', {
                lastName: suspect.lastName,
                firstName: suspect.firstName,
              }),
              memorialPageId: suspect.memorialPageId,
            });
            void navigate('/death-confirmation');
          },
          openIdentityVerification: () => void navigate('/identity-verification'),
          reportFailure: (_, { step, error }) => console.error(`deathDetection ${step}`, error),
        },
      }),
    [navigate, t],
  );
  const actor = useActorRef(machine);
  useEffect(() => {
    actor.send({
      type: 'LOADED',
      currentUserId: userId,
      inApp: isAppWebView(),
      today: tokyoToday(new Date()),
      lastShownDate: deathConfirmationStorage.lastStepsModalShown(),
    });
    registerThisDevice().catch((error: unknown) => console.error('device token', error));
  }, [actor, userId]);

  const state = useSelector(actor, (snapshot) =>
    snapshot.matches('deathModal') ? 'death' : snapshot.matches('expiredModal') ? 'expired' : null,
  );
  const suspect = useSelector(actor, (snapshot) => snapshot.context.suspect);
  const inApp = useSelector(actor, (snapshot) => snapshot.context.environment?.inApp === true);
  const name = suspect
    ? t('death-person-name', { lastName: suspect.lastName, firstName: suspect.firstName })
    : '';

  return (
    <>
      <Modal
        open={state === 'death'}
        title={t('death-modal-title')}
        onClose={() => actor.send({ type: 'CLOSE' })}
      >
        <p>{t('death-modal-body', { name })}</p>
        <p>{t('death-modal-steps')}</p>
        {inApp ? (
          <Actions>
            <Button type="button" onClick={() => actor.send({ type: 'START_CONFIRMATION' })}>
              {t('death-modal-start')}
            </Button>
          </Actions>
        ) : (
          <>
            <p>{t('death-modal-needs-app')}</p>
            <AppStoreLinks />
          </>
        )}
      </Modal>
      {/* No onClose: closes only through its two actions (spec §4). */}
      <Modal open={state === 'expired'} title={t('expired-modal-title')}>
        <p>{t('expired-modal-body', { name })}</p>
        <Actions>
          <Button type="button" onClick={() => actor.send({ type: 'REVERIFY' })}>
            {t('expired-modal-reverify')}
          </Button>
          <Button type="button" $variant="secondary" onClick={() => actor.send({ type: 'LATER' })}>
            {t('expired-modal-later')}
          </Button>
        </Actions>
      </Modal>
    </>
  );
}
