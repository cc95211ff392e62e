import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import styled from 'styled-components';
import { UserSelectField, type Choice } from '../../components/form/ChoiceFields';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { fetchReaders, replaceReaders, type Reader } from '../../services/api/endingnote';
import { cancelledInApp, isAppWebView } from '../../services/bridge';
import { ProofWithdrawn, useFreshProof } from '../login/useFreshProof';
import { Panel } from '../../components/ui/pageLayout';
import { printNote, saveNote } from './noteExport';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
`;

const readersKey = (userId: string) => ['endingnote', userId, 'readers'] as const;

/** Who may read the note; the screen asks for it beside the note read when it is the owner's. */
export const readersQuery = (userId: string) =>
  queryOptions({ queryKey: readersKey(userId), queryFn: () => fetchReaders(userId) });

function ReadersForm({
  userId,
  readers,
  connections,
}: {
  userId: string;
  readers: Reader[];
  connections: Choice[];
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState(readers.map((reader) => reader.userId));
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const { prove, dialog } = useFreshProof();
  const save = async () => {
    setStatus('saving');
    try {
      const saved = await prove((password) => replaceReaders(userId, chosen, password));
      queryClient.setQueryData(readersKey(userId), saved);
      setStatus('saved');
    } catch (error) {
      setStatus(error instanceof ProofWithdrawn ? 'idle' : 'failed');
    }
  };
  return (
    <>
      {dialog}
      <UserSelectField
        id="endingnote-readers"
        label={t('endingnote-readers-field')}
        value={chosen}
        onChange={(value) => {
          setChosen(value);
          setStatus('idle');
        }}
        choices={connections}
        emptyText={t('endingnote-no-connections')}
      />
      <div aria-live="polite">
        {status === 'saved' && <p>{t('endingnote-readers-saved')}</p>}
        {status === 'failed' && <p role="alert">{t('endingnote-save-failed')}</p>}
      </div>
      <Button type="button" disabled={status === 'saving'} onClick={() => void save()}>
        {t('endingnote-readers-save')}
      </Button>
    </>
  );
}

/** The owner's tools for the whole note: who may read it, and the export. */
export function NoteTools({ userId, connections }: { userId: string; connections: Choice[] }) {
  const t = useT();
  const readers = useQuery(readersQuery(userId));
  const [exportFailed, setExportFailed] = useState(false);
  // In the app, the app itself prints and keeps the files (noteExport.ts).
  const [inApp] = useState(isAppWebView);
  const settle = (work: Promise<void>) =>
    work.then(
      () => setExportFailed(false),
      (error: unknown) => setExportFailed(!cancelledInApp(error)),
    );
  return (
    <>
      <Panel aria-labelledby="endingnote-readers-title">
        <h2 id="endingnote-readers-title">{t('endingnote-readers')}</h2>
        <p>{t('endingnote-readers-text')}</p>
        {readers.data && (
          <ReadersForm userId={userId} readers={readers.data} connections={connections} />
        )}
        {readers.isError && <p role="alert">{t('endingnote-load-failed')}</p>}
      </Panel>
      <Panel aria-labelledby="endingnote-export-title">
        <h2 id="endingnote-export-title">{t('endingnote-export')}</h2>
        <p>{t(inApp ? 'endingnote-export-text-app' : 'endingnote-export-text')}</p>
        <Actions>
          <Button type="button" onClick={() => void settle(printNote(userId))}>
            {t(inApp ? 'endingnote-print-app' : 'endingnote-print')}
          </Button>
          <Button
            type="button"
            $variant="secondary"
            onClick={() => void settle(saveNote(userId, 'json'))}
          >
            {t('endingnote-export-json')}
          </Button>
          <Button
            type="button"
            $variant="secondary"
            onClick={() => void settle(saveNote(userId, 'html'))}
          >
            {t('endingnote-export-html')}
          </Button>
        </Actions>
        {exportFailed && <p role="alert">{t('endingnote-load-failed')}</p>}
      </Panel>
    </>
  );
}
