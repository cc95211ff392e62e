import { useMachine } from '@xstate/react';
import { AxiosError } from 'axios';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import styled from 'styled-components';
import { fromPromise } from 'xstate';
import { AppStoreLinks } from '../../components/appStore/AppStoreLinks';
import { DropdownField } from '../../components/form/ChoiceFields';
import { DateField } from '../../components/form/TextFields';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import {
  ConfirmationFailure,
  deathConfirmationMachine,
  type DeathConfirmationOutcome,
} from '../../machines/deathConfirmation';
import { confirmDeath, requestDeathConfirmationSign } from '../../services/api/deathDetection';
import { isAppWebView, logAnalyticsEvent, startBaseSign } from '../../services/bridge';
import { deathConfirmationStorage } from '../../services/persistence/deathConfirmationStorage';
import { tokyoToday } from '../../../contract/rules/account';
import { RELATIONSHIP_VALUES, type RelationshipValue } from '../../../contract/rules/social';
import { Page, Panel } from '../../components/ui/pageLayout';
import { formatTokyoDate } from './dates';
import { inspectOption } from '../../services/clientState/inspector';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin-top: 24px;
`;

const LeaveBlock = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin-top: 16px;
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 8px 16px;
  dt {
    font-weight: bold;
  }
  dd {
    margin: 0;
  }
`;

/** The text for a refusal: its own when the code has one, else the unexpected-error text. */
function failureTextOf(t: ReturnType<typeof useT>, code: string): string {
  const id = `death-confirmation-error-${code}`;
  const text = t(id);
  return text === id ? t('death-confirmation-error-unexpected') : text;
}

/** The server's reason for a refusal: a field's validation code, else the error code. */
function refusalOf(error: unknown): ConfirmationFailure {
  if (error instanceof AxiosError && error.response) {
    const data = error.response.data as { code?: string; errors?: { code?: string }[] };
    const code = data.errors?.[0]?.code ?? data.code;
    if (code) return new ConfirmationFailure(code);
  }
  return new ConfirmationFailure('unexpected');
}

const fields = (input: {
  subject: { userId: string };
  dateOfDeath: string;
  relationship: RelationshipValue;
}) => ({
  deathSuspectedUserId: input.subject.userId,
  dateOfDeath: input.dateOfDeath,
  relationship: input.relationship,
});

const STEPS = ['who', 'date', 'relationship', 'review'] as const;

/** /death-confirmation: a full-screen flow (the shell hides its header and footer here). */
export function Component() {
  const t = useT();
  const navigate = useNavigate();
  const inApp = isAppWebView();
  const machine = useMemo(
    () =>
      deathConfirmationMachine.provide({
        actors: {
          restore: fromPromise(async () => ({
            progress: deathConfirmationStorage.progress(),
            completion: deathConfirmationStorage.completion(),
            today: tokyoToday(new Date()),
          })),
          requestSign: fromPromise(async ({ input }) => {
            try {
              return await requestDeathConfirmationSign(fields(input));
            } catch (error) {
              throw refusalOf(error);
            }
          }),
          baseSign: fromPromise(async ({ input }) => {
            const signed = await startBaseSign(input, (error) =>
              console.error('base sign failed', error.reason),
            );
            if (!signed) throw new ConfirmationFailure('sign_failed');
            return signed;
          }),
          submit: fromPromise(async ({ input }): Promise<DeathConfirmationOutcome> => {
            try {
              const answer = await confirmDeath({
                ...fields(input),
                signTag: input.signRequest.signTag,
                signContent: input.signRequest.signContent,
                signature: input.signature,
              });
              return {
                subject: input.subject,
                state: answer.state,
                confirmationsNeeded: answer.confirmationsNeeded,
                confirmationsMade: answer.confirmations.length,
                graceEndsAt: answer.graceEndsAt,
              };
            } catch (error) {
              throw refusalOf(error);
            }
          }),
        },
        actions: {
          saveProgress: (_, progress) => deathConfirmationStorage.saveProgress(progress),
          saveCompletion: (_, { outcome }) => {
            deathConfirmationStorage.complete(outcome);
            logAnalyticsEvent('death_confirmation_sent', { state: outcome.state });
          },
          finish: () => {
            deathConfirmationStorage.clear();
            void navigate('/dashboard');
          },
          leave: (_, { subject }) =>
            void navigate(`/death-administration/${encodeURIComponent(subject.userId)}`),
        },
      }),
    [navigate],
  );
  const [snapshot, send] = useMachine(machine, inspectOption());
  const { subject, dateOfDeath, relationship, failure, outcome } = snapshot.context;
  const failureText = failure ? failureTextOf(t, failure) : undefined;
  const stepIndex = STEPS.findIndex((step) => snapshot.matches(step));
  const back = (
    <Button type="button" $variant="secondary" onClick={() => send({ type: 'BACK' })}>
      {t('death-confirmation-back')}
    </Button>
  );
  const leave = (
    <LeaveBlock>
      <Button type="button" $variant="secondary" onClick={() => send({ type: 'LEAVE' })}>
        {t('death-confirmation-leave')}
      </Button>
      <small>{t('death-confirmation-leave-hint')}</small>
    </LeaveBlock>
  );
  const next = (
    <Button type="button" onClick={() => send({ type: 'NEXT' })}>
      {t('death-confirmation-next')}
    </Button>
  );

  return (
    <Page>
      <h1>{t('screen-death-confirmation')}</h1>
      {stepIndex >= 0 && (
        <p>{t('death-confirmation-step', { current: stepIndex + 1, total: STEPS.length })}</p>
      )}
      <Panel aria-live="polite">
        {snapshot.matches('restoring') && <p>{t('identity-loading')}</p>}
        {snapshot.matches('missing') && (
          <>
            <p>{t('death-confirmation-missing')}</p>
            <ButtonLink to="/dashboard">{t('death-confirmation-home')}</ButtonLink>
          </>
        )}
        {snapshot.matches('who') && subject && (
          <>
            <h2>{t('death-confirmation-who-title')}</h2>
            <p>{t('death-confirmation-who-body', { name: subject.name })}</p>
            {subject.memorialPageId && (
              <p>
                <Link to={`/memory/${encodeURIComponent(subject.memorialPageId)}`}>
                  {t('death-confirmation-memorial-page', { name: subject.name })}
                </Link>
              </p>
            )}
            <Actions>{next}</Actions>
            {leave}
          </>
        )}
        {snapshot.matches('date') && (
          <>
            <h2>{t('death-confirmation-date-title')}</h2>
            <DateField
              id="death-confirmation-date"
              label={t('death-confirmation-date-label')}
              value={dateOfDeath}
              onChange={(value) => send({ type: 'SET_DATE', value })}
              error={failureText}
            />
            <Actions>
              {back}
              {next}
            </Actions>
            {leave}
          </>
        )}
        {snapshot.matches('relationship') && subject && (
          <>
            <h2>{t('death-confirmation-relationship-title')}</h2>
            <DropdownField
              id="death-confirmation-relationship"
              label={t('death-confirmation-relationship-label', { name: subject.name })}
              value={relationship ?? ''}
              noneLabel={t('death-confirmation-relationship-none')}
              choices={RELATIONSHIP_VALUES.map((value) => ({
                value,
                label: t(`relationship-${value}`),
              }))}
              onChange={(value) =>
                value && send({ type: 'SET_RELATIONSHIP', value: value as RelationshipValue })
              }
              error={failureText}
            />
            <Actions>
              {back}
              {next}
            </Actions>
            {leave}
          </>
        )}
        {(snapshot.matches('review') || snapshot.matches('signing')) && subject && (
          <>
            <h2>{t('death-confirmation-review-title')}</h2>
            <Facts>
              <dt>{t('death-confirmation-fact-name')}</dt>
              <dd>{subject.name}</dd>
              <dt>{t('death-confirmation-fact-date')}</dt>
              <dd>{dateOfDeath ? formatTokyoDate(dateOfDeath) : ''}</dd>
              <dt>{t('death-confirmation-fact-relationship')}</dt>
              <dd>{relationship ? t(`relationship-${relationship}`) : ''}</dd>
            </Facts>
            <p>{t('death-confirmation-review-body')}</p>
            {failureText && <p role="alert">{failureText}</p>}
            {snapshot.matches('signing') && <p>{t('death-confirmation-signing')}</p>}
            {inApp ? (
              <Actions>
                {back}
                <Button
                  type="button"
                  disabled={snapshot.matches('signing')}
                  onClick={() => send({ type: 'SIGN' })}
                >
                  {t('death-confirmation-sign')}
                </Button>
              </Actions>
            ) : (
              <>
                <p>{t('death-confirmation-needs-app')}</p>
                <AppStoreLinks />
                <Actions>{back}</Actions>
              </>
            )}
            {snapshot.matches('review') && leave}
          </>
        )}
        {snapshot.matches('completed') && outcome && (
          <>
            <h2>{t('death-confirmation-completed-title')}</h2>
            <p>
              {outcome.state === 'suspected'
                ? t('death-confirmation-waiting', {
                    name: outcome.subject.name,
                    made: outcome.confirmationsMade,
                    needed: outcome.confirmationsNeeded,
                  })
                : t('death-confirmation-confirmed', {
                    name: outcome.subject.name,
                    until: outcome.graceEndsAt ? formatTokyoDate(outcome.graceEndsAt) : '',
                  })}
            </p>
            <Actions>
              <Button type="button" onClick={() => send({ type: 'FINISH' })}>
                {t('death-confirmation-finish')}
              </Button>
            </Actions>
          </>
        )}
      </Panel>
    </Page>
  );
}
