import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { Button } from '../ui/Button';
import type { UploadTransfer } from './useUploadProgress';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
  margin: 8px 0 16px;
  progress {
    flex: 1 1 160px;
    height: 12px;
  }
`;

/** An upload under way: the file, a bar with its percent, and a cancel. */
export function UploadProgress({
  fileName,
  percent,
  onCancel,
}: {
  fileName: string;
  percent: number;
  onCancel: () => void;
}) {
  const t = useT();
  const label = t('upload-progress', { fileName, percent });
  return (
    <Row role="status">
      <progress max={100} value={percent} aria-label={label} />
      <span>{label}</span>
      <Button type="button" $variant="secondary" onClick={onCancel}>
        {t('upload-cancel')}
      </Button>
    </Row>
  );
}

/** The progress of a transfer of `useUploadProgress` while one is under way; nothing else. */
export function TransferProgress({ transfer }: { transfer: UploadTransfer }) {
  return transfer.progress ? (
    <UploadProgress
      fileName={transfer.progress.fileName}
      percent={transfer.progress.percent}
      onCancel={transfer.cancel}
    />
  ) : null;
}
