import { useMutation } from '@tanstack/react-query';
import { Button } from '../../components/ui/Button';
import { formatTokyoInstantDateTime } from '../../components/ui/calendarDate';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import { dataExportDownloadUrl, type DataExport } from '../../services/api/dataExport';
import { isQuietHttpError } from '../../services/http';
import { isHttpError } from '../../services/http/lazy';

/* One archive in a list — a member's own data, or a memorial page's keepsake — as both show it. */

/** While an archive is being made, its status is asked for again this often. */
export const PREPARING_POLL_MS = 5_000;

export const preparing = (item: DataExport) =>
  item.status === 'requested' || item.status === 'building';

/** The `code` of a refused request, if the server gave one. */
export function refusalOf(error: unknown): string | undefined {
  if (!isHttpError(error)) return undefined;
  return (error.response?.data as { code?: string } | undefined)?.code;
}

export const archiveTime = (iso: string) => formatTokyoInstantDateTime(new Date(iso));

/**
 * One archive: `heading` (when and by whom it was asked for), where it stands, and — for the
 * member who asked, while it is kept — its download.
 */
export function ArchiveRow({
  item,
  heading,
  downloadable = true,
}: {
  item: DataExport;
  heading: string;
  downloadable?: boolean;
}) {
  const t = useT();
  const download = useMutation({
    mutationFn: () => dataExportDownloadUrl(item.id),
    // The link is the archive itself: the browser saves it as a file.
    onSuccess: (url) => window.location.assign(url),
    onError: (error) => {
      if (!isQuietHttpError(error)) void showToast(t('data-export-download-failed'), 'error');
    },
  });
  return (
    <li>
      <p>
        {heading} <strong>{t(`data-export-status-${item.status}`)}</strong>
      </p>
      {item.status === 'ready' && item.expiresAt && (
        <>
          <p>{t('data-export-kept-until', { at: archiveTime(item.expiresAt) })}</p>
          {downloadable && (
            <Button disabled={download.isPending} onClick={() => download.mutate()}>
              {t('data-export-download')}
            </Button>
          )}
        </>
      )}
    </li>
  );
}
