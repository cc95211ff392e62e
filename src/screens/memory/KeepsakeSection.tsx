import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/ui/Button';
import { Panel } from '../../components/ui/pageLayout';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import { fetchKeepsakes, keepsakeKeys, requestKeepsake } from '../../services/api/dataExport';
import { isQuietHttpError } from '../../services/http';
import { useSession } from '../../services/session/useSession';
import { ItemList, NextStep } from '../dashboard/homeParts';
import {
  ArchiveRow,
  archiveTime,
  PREPARING_POLL_MS,
  preparing,
  refusalOf,
} from '../mypage/ArchiveRow';
import { SectionTitle } from './sectionLayout';

/**
 * The page's keepsake (admins only): ask for it, follow it, download one's own; every admin
 * sees who took the page away and when.
 */
export function KeepsakeSection({ memorialPageId }: { memorialPageId: string }) {
  const t = useT();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const key = keepsakeKeys.ofPage(memorialPageId);
  const record = useQuery({
    queryKey: key,
    queryFn: () => fetchKeepsakes(memorialPageId),
    refetchInterval: (query) =>
      query.state.data?.keepsakes.some(preparing) ? PREPARING_POLL_MS : false,
  });
  const request = useMutation({
    mutationFn: () => requestKeepsake(memorialPageId),
    onSuccess: () => {
      void showToast(t('keepsake-accepted'), 'success');
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => {
      const code = refusalOf(error);
      if (code === 'data_export_in_progress') {
        void showToast(t('data-export-in-progress'), 'error');
      } else if (code === 'data_export_limit') {
        void showToast(t('data-export-limit'), 'error');
      } else if (code === 'keepsake_not_yet') {
        void showToast(t('keepsake-not-yet'), 'error');
      } else if (!isQuietHttpError(error)) {
        void showToast(t('keepsake-request-failed'), 'error');
      }
    },
  });
  const mine = record.data?.keepsakes.filter((item) => item.requestedBy.userId === user?.id);
  return (
    <Panel id="keepsake" aria-labelledby="memory-keepsake-title">
      <SectionTitle id="memory-keepsake-title">{t('keepsake-heading')}</SectionTitle>
      <p>{t('keepsake-explained')}</p>
      {record.isError && <p role="alert">{t('keepsake-load-error')}</p>}
      {record.data && !record.data.available && <p>{t('keepsake-not-yet')}</p>}
      {record.data?.available && (
        <NextStep>
          <Button
            disabled={request.isPending || (mine?.some(preparing) ?? false)}
            onClick={() => request.mutate()}
          >
            {t('keepsake-request')}
          </Button>
        </NextStep>
      )}
      {record.data && record.data.keepsakes.length > 0 && (
        <ItemList aria-label={t('keepsake-list-label')}>
          {record.data.keepsakes.map((item) => (
            <ArchiveRow
              key={item.id}
              item={item}
              heading={t('keepsake-requested', {
                at: archiveTime(item.createdAt),
                name: `${item.requestedBy.lastName} ${item.requestedBy.firstName}`,
              })}
              downloadable={item.requestedBy.userId === user?.id}
            />
          ))}
        </ItemList>
      )}
    </Panel>
  );
}
