import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import type { SuspectedUser } from '../../../contract/deathDetection';
import { deathDetectionMachine, type IdentityStatusAnswer } from '../../machines/deathDetection';
import {
  cancelDeathSuspicion,
  fetchAdministeredUserWithSuspectedDeath,
  fetchDeathCase,
  fetchDeathSuspectedUser,
  fetchIdentityStatus,
} from '../../services/api/deathDetection';
import { isAppWebView, logAnalyticsEvent } from '../../services/bridge';
import { registerThisDevice } from '../../services/bridge/deviceToken';
import { deathConfirmationStorage } from '../../services/persistence/deathConfirmationStorage';
import { tokyoToday } from '../../../contract/rules/tokyoDate';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';
import { ConfirmationStart } from './ConfirmationStart';
import { OwnSuspicionBanner, type OwnCase } from './OwnSuspicionBanner';
import { inspectOption } from '../../services/clientState/inspector';

const Actions = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
  margin-top: 24px;
`;

/**
 * The flow's modals: the death modal, and one per identity status that cannot confirm yet,
 * with its words (`<words>-modal-title`, `-body`) and the label of its way to verify.
 */
const FLOW_MODALS = [
  { state: 'deathModal', words: 'death', action: 'death-modal-start' },
  { state: 'unverifiedModal', words: 'unverified', action: 'unverified-modal-start' },
  { state: 'progressModal', words: 'progress', action: 'progress-modal-continue' },
  { state: 'expiredModal', words: 'expired', action: 'expired-modal-reverify' },
  { state: 'revokedModal', words: 'revoked', action: 'expired-modal-reverify' },
] as const;

/**
 * Both reads, one after the other: the death-suspected user answers the member's own case
 * first; otherwise the administrator read names a member still awaiting the caller's
 * confirmation (it leaves out cases they already confirmed and cases in grace).
 */
async function findSuspectedUser(
  currentUserId: string,
  onOwnCase: (state: OwnCase['state']) => void,
): Promise<SuspectedUser | null> {
  const answer = await fetchDeathSuspectedUser();
  if (answer.userId === currentUserId) {
    onOwnCase(answer.state ?? 'suspected');
    return fromAnswer(answer);
  }
  const administeredId = await fetchAdministeredUserWithSuspectedDeath();
  if (!administeredId) return null;
  if (answer.userId === administeredId) return fromAnswer(answer);
  const found = await fetchDeathCase(administeredId);
  return {
    userId: found.userId,
    memorialPageId: found.memorialPageId,
    lastName: found.lastName,
    firstName: found.firstName,
    state: found.state === 'grace' ? 'grace' : 'suspected',
  };
}

function fromAnswer(answer: Awaited<ReturnType<typeof fetchDeathSuspectedUser>>): SuspectedUser {
  return {
    userId: answer.userId!,
    memorialPageId: answer.memorialPageId,
    lastName: answer.lastName ?? '',
    firstName: answer.firstName ?? '',
    state: answer.state ?? 'suspected',
  };
}

/**
 * The header area's death-detection flow for a signed-in member: runs the
 * deathDetection statechart once per member and shows its two modals. Inside the app it also
 * registers this device's push token.
 */
export function DeathDetectionModals({ userId }: { userId: string }) {
  const t = useT();
  const navigate = useNavigate();
  // The member's own case: found by the flow, then cancelled by it (or by a retry).
  const [ownCase, setOwnCase] = useState<{
    state: OwnCase['state'];
    outcome: OwnCase['outcome'] | null;
    mailsWithdrawn?: number;
  } | null>(null);
  // The cancel's answer: how many mails about the case were withdrawn before they went.
  const cancelOwnCase = useCallback(async (suspectId: string) => {
    const { mailsWithdrawn } = await cancelDeathSuspicion(suspectId);
    setOwnCase((current) => current && { ...current, mailsWithdrawn });
  }, []);
  const machine = useMemo(
    () =>
      deathDetectionMachine.provide({
        actors: {
          findSuspectedUser: fromPromise(() =>
            findSuspectedUser(userId, (state) => setOwnCase({ state, outcome: null })),
          ),
          cancelSuspicion: fromPromise(({ input }) => cancelOwnCase(input.userId)),
          readIdentityStatus: fromPromise<IdentityStatusAnswer, undefined>(async () => {
            const status = await fetchIdentityStatus();
            return { authStatus: status.authStatus, revokedReason: status.revokedReason };
          }),
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
          reportFailure: (_, { step, error }) => {
            if (step === 'cancelSuspicion') {
              setOwnCase((current) => current && { ...current, outcome: 'failed' });
            }
            console.error(`deathDetection ${step}`, error);
          },
        },
      }),
    [navigate, t, userId, cancelOwnCase],
  );
  const actor = useActorRef(machine, inspectOption());
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

  const state = useSelector(
    actor,
    (snapshot) => FLOW_MODALS.find((modal) => snapshot.matches(modal.state)) ?? null,
  );
  // The app's analytics learn which notice an administrator was shown (nothing outside the app).
  useEffect(() => {
    if (state) logAnalyticsEvent('death_notice_shown', { modal: state.words });
  }, [state]);
  const suspect = useSelector(actor, (snapshot) => snapshot.context.suspect);
  const cancelled = useSelector(
    actor,
    (snapshot) => snapshot.status === 'done' && snapshot.context.suspect?.userId === userId,
  );
  const ownOutcome = ownCase?.outcome ?? (cancelled ? 'cancelled' : 'cancelling');
  const inApp = useSelector(actor, (snapshot) => snapshot.context.environment?.inApp === true);
  const name = suspect
    ? t('death-person-name', { lastName: suspect.lastName, firstName: suspect.firstName })
    : '';

  return (
    <>
      {ownCase && (
        <OwnSuspicionBanner
          ownCase={{
            state: ownCase.state,
            outcome: ownOutcome,
            mailsWithdrawn: ownCase.mailsWithdrawn,
          }}
          onRetry={() => {
            setOwnCase({ ...ownCase, outcome: 'cancelling' });
            cancelDeathSuspicion(userId).then(
              ({ mailsWithdrawn }) =>
                setOwnCase({ ...ownCase, outcome: 'cancelled', mailsWithdrawn }),
              () => setOwnCase({ ...ownCase, outcome: 'failed' }),
            );
          }}
          onDismiss={() => setOwnCase(null)}
        />
      )}
      <Modal
        open={state?.state === 'deathModal'}
        title={t('death-modal-title')}
        onClose={() => actor.send({ type: 'CLOSE' })}
      >
        <p>{t('death-modal-body', { name })}</p>
        <p>{t('death-modal-steps')}</p>
        {suspect && (
          <p>
            <Link
              to={`/death-administration/${encodeURIComponent(suspect.userId)}`}
              onClick={() => actor.send({ type: 'CLOSE' })}
            >
              {t('death-modal-case-link', { name })}
            </Link>
          </p>
        )}
        <ConfirmationStart
          inApp={inApp}
          onStart={() => actor.send({ type: 'START_CONFIRMATION' })}
        />
      </Modal>
      {/* No onClose: closes only through its two actions: the member must answer. */}
      {state && state.state !== 'deathModal' && (
        <Modal open title={t(`${state.words}-modal-title`)}>
          <p>{t(`${state.words}-modal-body`, { name })}</p>
          <Actions>
            <Button type="button" onClick={() => actor.send({ type: 'REVERIFY' })}>
              {t(state.action)}
            </Button>
            <Button
              type="button"
              $variant="secondary"
              onClick={() => actor.send({ type: 'LATER' })}
            >
              {t('expired-modal-later')}
            </Button>
          </Actions>
        </Modal>
      )}
    </>
  );
}
