import { PageFailed, PageLoading } from '../../components/ui/PageLoading';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { fromPromise } from 'xstate';
import { ConfirmationStart } from '../../components/deathDetection/ConfirmationStart';
import { TextareaField } from '../../components/form/TextFields';
import { Label } from '../../components/form/FieldFrame';
import { useImageUrl } from '../../services/frame/useImageUrl';
import { Button } from '../../components/ui/Button';
import { formatTokyoInstantDateTime } from '../../components/ui/calendarDate';
import { Notice } from '../../components/ui/Notice';
import { UploadProgress } from '../../components/upload/UploadProgress';
import { useT } from '../../i18n/useT';
import { deathReportMachine, REPORT_NOTE_LIMIT } from '../../machines/deathReport';
import {
  deathKeys,
  fetchDeathAuditLog,
  fetchDeathCase,
  reportDeathSuspected,
  type DeathCaseSignal,
} from '../../services/api/deathDetection';
import { uploadImage } from '../../services/api/uploads';
import { isAppWebView } from '../../services/bridge';
import { deathConfirmationStorage } from '../../services/persistence/deathConfirmationStorage';
import { ItemList, Muted } from '../dashboard/homeParts';
import { formatTokyoDate } from '../deathConfirmation/dates';
import { tokyoToday } from '../../../contract/rules/tokyoDate';
import { Actions, Page, Panel } from '../../components/ui/pageLayout';
import { coded } from './apiFailure';
import { inspectOption } from '../../services/clientState/inspector';

const at = (iso: string) => formatTokyoInstantDateTime(new Date(iso));

function ReportForm({ userId, name }: { userId: string; name: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const machine = useMemo(
    () =>
      deathReportMachine.provide({
        actors: {
          uploadDocument: fromPromise(({ input, signal }) =>
            uploadImage(input.file, { signal, onProgress: input.onProgress }),
          ),
          submitReport: fromPromise(({ input }) =>
            coded(() =>
              reportDeathSuspected({
                userId: input.userId,
                ...(input.note.trim() ? { note: input.note.trim() } : {}),
                ...(input.documentImageName ? { documentImageName: input.documentImageName } : {}),
              }),
            ).then(() => undefined),
          ),
        },
        actions: {
          reported: () => {
            // In a browser she has just reported and this page says what comes next: the
            // header's notice modal, with nothing to do in a browser, is not shown to her today.
            if (!isAppWebView())
              deathConfirmationStorage.rememberStepsModalShown(tokyoToday(new Date()));
            void queryClient.invalidateQueries({ queryKey: ['death'] });
          },
        },
      }),
    [queryClient],
  );
  const actor = useActorRef(machine, { ...inspectOption(), input: { userId } });
  const snapshot = useSelector(actor, (state) => state);
  const { note, document, uploading, error } = snapshot.context;
  const busy = snapshot.matches('submitting');
  return (
    <form
      noValidate
      aria-labelledby="death-report-heading"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'SUBMIT' });
      }}
    >
      <h2 id="death-report-heading">{t('death-report-heading')}</h2>
      <p>{t('death-report-explained', { name })}</p>
      <TextareaField
        id="death-report-note"
        label={t('death-report-note', { max: REPORT_NOTE_LIMIT })}
        value={note}
        maxLength={REPORT_NOTE_LIMIT}
        onChange={(value) => actor.send({ type: 'NOTE', value })}
        error={error === 'note_too_long' ? t('death-report-error-note_too_long') : undefined}
      />
      <Label htmlFor="death-report-document">{t('death-report-document')}</Label>
      <Muted>{t('death-report-document-hint')}</Muted>
      {uploading ? (
        <UploadProgress
          fileName={uploading.file.name}
          percent={uploading.percent}
          onCancel={() => actor.send({ type: 'CANCEL_UPLOAD' })}
        />
      ) : document ? (
        <p>
          {t('death-report-document-attached', { fileName: document.fileName })}{' '}
          <Button
            type="button"
            $variant="secondary"
            onClick={() => actor.send({ type: 'REMOVE_DOCUMENT' })}
          >
            {t('death-report-document-remove')}
          </Button>
        </p>
      ) : (
        <p>
          <input
            id="death-report-document"
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif"
            disabled={busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) actor.send({ type: 'PICK_DOCUMENT', file });
            }}
          />
        </p>
      )}
      {error && error !== 'note_too_long' && (
        <Notice $tone="attention" role="alert">
          {t(`death-report-error-${error}`)}
        </Notice>
      )}
      <Actions>
        <Button type="submit" disabled={busy || uploading !== null}>
          {t('death-report-submit')}
        </Button>
      </Actions>
    </form>
  );
}

function SignalItem({ signal }: { signal: DeathCaseSignal }) {
  const t = useT();
  const documentUrl = useImageUrl(signal.documentImageName);
  const reporter =
    signal.reporterLastName !== null
      ? t('death-person-name', {
          lastName: signal.reporterLastName,
          firstName: signal.reporterFirstName ?? '',
        })
      : null;
  return (
    <li>
      {t('death-case-signal', {
        when: at(signal.createdAt),
        source: t(`death-source-${signal.source}`),
      })}
      {reporter && <> {t('death-case-reporter', { name: reporter })}</>}
      {signal.note && (
        <>
          <br />
          {t('death-case-note', { note: signal.note })}
        </>
      )}
      {documentUrl && (
        <>
          <br />
          <a href={documentUrl} target="_blank" rel="noreferrer">
            {t('death-case-document')}
          </a>
        </>
      )}
    </li>
  );
}

function AuditLog({ userId }: { userId: string }) {
  const t = useT();
  const log = useQuery({
    queryKey: deathKeys.audit(userId),
    queryFn: () => fetchDeathAuditLog(userId),
  });
  return (
    <Panel aria-labelledby="death-case-audit">
      <h2 id="death-case-audit">{t('death-case-audit-heading')}</h2>
      {log.isError && <p role="alert">{t('dashboard-load-error')}</p>}
      {log.data?.length === 0 && <p>{t('death-case-audit-none')}</p>}
      <ItemList>
        {log.data?.map((entry) => (
          <li key={entry.id}>
            {t('death-case-audit-entry', {
              when: at(entry.createdAt),
              action: t(`death-audit-${entry.action}`),
            })}
            {entry.actorLastName !== null && (
              <Muted>
                {' '}
                {t('death-case-audit-actor', {
                  name: t('death-person-name', {
                    lastName: entry.actorLastName,
                    firstName: entry.actorFirstName ?? '',
                  }),
                })}
              </Muted>
            )}
          </li>
        ))}
      </ItemList>
    </Panel>
  );
}

/** /death-administration/:userId: one administered member's case, report and confirmation. */
export function Component() {
  const t = useT();
  const navigate = useNavigate();
  const { userId = '' } = useParams();
  const deathCase = useQuery({
    queryKey: deathKeys.deathCase(userId),
    queryFn: () => fetchDeathCase(userId),
    retry: false,
  });
  if (deathCase.isPending) {
    return <PageLoading title={t('death-case-title-loading')} />;
  }
  if (deathCase.isError) {
    return (
      <PageFailed title={t('death-case-title-loading')} message={t('death-case-unavailable')}>
        <Link to="/death-administration">{t('death-case-back')}</Link>
      </PageFailed>
    );
  }
  const found = deathCase.data;
  const name = t('death-person-name', { lastName: found.lastName, firstName: found.firstName });
  const startConfirmation = () => {
    deathConfirmationStorage.start({
      userId: found.userId,
      name,
      memorialPageId: found.memorialPageId,
    });
    void navigate('/death-confirmation');
  };
  return (
    <Page>
      <h1>{t('death-case-title', { name })}</h1>
      <Panel aria-labelledby="death-case-state">
        <h2 id="death-case-state">{t('death-case-state-heading')}</h2>
        <p>
          <strong>{t(`death-state-${found.state}`)}</strong>
        </p>
        <p>{t(`death-case-state-${found.state}-explained`, { name })}</p>
        <p>{t('death-case-rule', { needed: found.confirmationsNeeded })}</p>
        {found.suspectedAt && (
          <p>{t('death-case-suspected-at', { when: at(found.suspectedAt) })}</p>
        )}
        {found.graceEndsAt && found.state === 'grace' && (
          <p>{t('death-case-grace-ends', { when: at(found.graceEndsAt) })}</p>
        )}
        {found.releasedAt && <p>{t('death-case-released-at', { when: at(found.releasedAt) })}</p>}
        {found.signals.length > 0 && (
          <>
            <h3>{t('death-case-signals')}</h3>
            <ItemList>
              {found.signals.map((signal) => (
                <SignalItem key={signal.createdAt + signal.source} signal={signal} />
              ))}
            </ItemList>
          </>
        )}
        {found.confirmations.length > 0 && (
          <>
            <h3>{t('death-case-confirmations')}</h3>
            <ItemList>
              {found.confirmations.map((confirmation) => (
                <li key={confirmation.administratorUserId}>
                  {t('death-case-confirmation', {
                    name: t('death-person-name', {
                      lastName: confirmation.lastName,
                      firstName: confirmation.firstName,
                    }),
                    when: at(confirmation.createdAt),
                    date: formatTokyoDate(confirmation.dateOfDeath),
                  })}
                </li>
              ))}
            </ItemList>
          </>
        )}
        {found.lastCancelled && (
          <>
            <h3>{t('death-case-cancelled-heading')}</h3>
            <p>
              {t(`death-case-cancelled-by-${found.lastCancelled.cancelledBy}`, {
                name,
                reported: at(found.lastCancelled.suspectedAt),
                when: at(found.lastCancelled.cancelledAt),
              })}
            </p>
            <ItemList>
              {found.lastCancelled.signals.map((signal) => (
                <SignalItem key={signal.createdAt + signal.source} signal={signal} />
              ))}
            </ItemList>
            {found.lastCancelled.mailsWithdrawn > 0 && (
              <p>
                {t('death-case-mails-withdrawn', {
                  count: String(found.lastCancelled.mailsWithdrawn),
                })}
              </p>
            )}
          </>
        )}
        {found.canConfirm && (
          <ConfirmationStart inApp={isAppWebView()} onStart={startConfirmation} />
        )}
      </Panel>
      {found.state === 'alive' && (
        <Panel>
          <ReportForm userId={found.userId} name={name} />
        </Panel>
      )}
      <AuditLog userId={found.userId} />
      <Link to="/death-administration">{t('death-case-back')}</Link>
    </Page>
  );
}
