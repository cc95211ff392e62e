import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/ui/Button';
import { formatTokyoInstantDateTime } from '../../components/ui/calendarDate';
import { Panel } from '../../components/ui/pageLayout';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import {
  dataExportDownloadUrl,
  dataExportKeys,
  fetchDataExports,
  requestDataExport,
  type DataExport,
} from '../../services/api/dataExport';
import { isQuietHttpError } from '../../services/http';
import { isHttpError } from '../../services/http/lazy';
import { useFreshProof } from '../login/useFreshProof';
import { ItemList, NextStep } from '../dashboard/homeParts';

/** While an archive is being made, its status is asked for again this often. */
const PREPARING_POLL_MS = 5_000;

const preparing = (item: DataExport) => item.status === 'requested' || item.status === 'building';

function refusalOf(error: unknown): string | undefined {
  if (!isHttpError(error)) return undefined;
  return (error.response?.data as { code?: string } | undefined)?.code;
}

/** One archive: when it was asked for, where it stands, and its download while it is kept. */
function ExportRow({ item }: { item: DataExport }) {
  const t = useT();
  const download = useMutation({
    mutationFn: () => dataExportDownloadUrl(item.id),
    // The link is the archive itself: the browser saves it as a file.
    onSuccess: (url) => window.location.assign(url),
    onError: (error) => {
      if (!isQuietHttpError(error)) void showToast(t('data-export-download-failed'), 'error');
    },
  });
  const at = (iso: string) => formatTokyoInstantDateTime(new Date(iso));
  return (
    <li>
      <p>
        {t('data-export-requested-at', { at: at(item.createdAt) })}{' '}
        <strong>{t(`data-export-status-${item.status}`)}</strong>
      </p>
      {item.status === 'ready' && item.expiresAt && (
        <>
          <p>{t('data-export-kept-until', { at: at(item.expiresAt) })}</p>
          <Button disabled={download.isPending} onClick={() => download.mutate()}>
            {t('data-export-download')}
          </Button>
        </>
      )}
    </li>
  );
}

/** The my page's panel for taking all of one's data: ask, follow, download. */
export function DataExportPanel() {
  const t = useT();
  const queryClient = useQueryClient();
  const { prove, dialog } = useFreshProof();
  const list = useQuery({
    queryKey: dataExportKeys.list,
    queryFn: fetchDataExports,
    refetchInterval: (query) => (query.state.data?.some(preparing) ? PREPARING_POLL_MS : false),
  });
  const request = useMutation({
    mutationFn: () => prove((password) => requestDataExport(password)),
    onSuccess: () => {
      void showToast(t('data-export-accepted'), 'success');
      void queryClient.invalidateQueries({ queryKey: dataExportKeys.list });
    },
    onError: (error) => {
      if (error instanceof Error && error.name === 'ProofWithdrawn') return;
      const code = refusalOf(error);
      if (code === 'data_export_in_progress') {
        void showToast(t('data-export-in-progress'), 'error');
      } else if (code === 'data_export_limit') {
        void showToast(t('data-export-limit'), 'error');
      } else if (!isQuietHttpError(error)) {
        void showToast(t('data-export-request-failed'), 'error');
      }
    },
  });
  const busy = list.data?.some(preparing) ?? false;
  return (
    <Panel aria-labelledby="mypage-data-export">
      {dialog}
      <h2 id="mypage-data-export">{t('data-export-heading')}</h2>
      <p>{t('data-export-explained')}</p>
      <NextStep>
        <Button disabled={request.isPending || busy} onClick={() => request.mutate()}>
          {t('data-export-request')}
        </Button>
      </NextStep>
      {list.isError && <p role="alert">{t('data-export-load-error')}</p>}
      {list.data && list.data.length > 0 && (
        <ItemList aria-label={t('data-export-list-label')}>
          {list.data.map((item) => (
            <ExportRow key={item.id} item={item} />
          ))}
        </ItemList>
      )}
    </Panel>
  );
}
