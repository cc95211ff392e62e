import { useState } from 'react';
import styled from 'styled-components';
import { useTimecapsuleLettersChanged } from '../../components/shell/useMenuNavigation';
import { Button } from '../../components/ui/Button';
import { Modal } from '../../components/ui/Modal';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import { useQueryClient } from '@tanstack/react-query';
import { deleteLetter, timecapsuleKeys } from '../../services/api/timecapsule';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  justify-content: flex-end;
  margin-top: 24px;
`;

/**
 * Deletes an unsent letter after the writer confirms it in a dialog. A letter delivered in the
 * meantime is not deleted (delivered letters never change); the writer is told so.
 */
export function DeleteLetterButton({
  letterId,
  title,
  onDeleted,
}: {
  letterId: string;
  title: string;
  /** The letter is gone, or was delivered meanwhile: what shows it must be read again. */
  onDeleted: () => void;
}) {
  const t = useT();
  const lettersChanged = useTimecapsuleLettersChanged();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const remove = async () => {
    setDeleting(true);
    try {
      const deleted = await deleteLetter(letterId);
      void showToast(
        t(deleted ? 'timecapsule-deleted' : 'timecapsule-already-delivered'),
        deleted ? 'success' : 'error',
      );
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: timecapsuleKeys.lists });
      lettersChanged();
      onDeleted();
    } catch {
      void showToast(t('timecapsule-delete-failed'), 'error');
    }
    setDeleting(false);
  };

  return (
    <>
      <Button
        type="button"
        $variant="secondary"
        aria-label={t('timecapsule-delete-named', { title })}
        onClick={() => setConfirming(true)}
      >
        {t('timecapsule-delete')}
      </Button>
      <Modal
        open={confirming}
        title={t('timecapsule-delete-title')}
        onClose={() => setConfirming(false)}
      >
        <p>{t('timecapsule-delete-text', { title })}</p>
        <Actions>
          <Button type="button" $variant="secondary" onClick={() => setConfirming(false)}>
            {t('timecapsule-delete-keep')}
          </Button>
          <Button type="button" disabled={deleting} onClick={() => void remove()}>
            {t('timecapsule-delete-confirm')}
          </Button>
        </Actions>
      </Modal>
    </>
  );
}
