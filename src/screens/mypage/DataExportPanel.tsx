import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/ui/Button';
import { Panel } from '../../components/ui/pageLayout';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import { dataExportKeys, fetchDataExports, requestDataExport } from '../../services/api/dataExport';
import { isQuietHttpError } from '../../services/http';
import { useFreshProof } from '../login/useFreshProof';
import { ItemList, NextStep } from '../dashboard/homeParts';
import { ArchiveRow, archiveTime, PREPARING_POLL_MS, preparing, refusalOf } from './ArchiveRow';

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
            <ArchiveRow
              key={item.id}
              item={item}
              heading={t('data-export-requested-at', { at: archiveTime(item.createdAt) })}
            />
          ))}
        </ItemList>
      )}
    </Panel>
  );
}
