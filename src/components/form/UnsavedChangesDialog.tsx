import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import {
  useUnsavedChangesGuard,
  type UnsavedChangesGuardOptions,
} from '../../services/navigation/useUnsavedChangesGuard';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  justify-content: flex-end;
  margin-top: 24px;
`;

export interface UnsavedChangesDialogProps extends UnsavedChangesGuardOptions {
  /** True while the screen's form holds changes that are not saved. */
  when: boolean;
}

/**
 * Put once in any screen with a form: holds navigation while `when` is true and asks with
 * the unsaved-warning dialog; the tab's reload or close gets the browser's own prompt.
 */
export function UnsavedChangesDialog({ when, ...options }: UnsavedChangesDialogProps) {
  const t = useT();
  const guard = useUnsavedChangesGuard(when, options);
  return (
    <Modal open={guard.warningOpen} title={t('unsaved-title')} onClose={guard.cancel}>
      <p>{t('unsaved-text')}</p>
      <Actions>
        <Button type="button" $variant="secondary" onClick={guard.cancel}>
          {t('unsaved-stay')}
        </Button>
        <Button type="button" onClick={guard.confirm}>
          {t('unsaved-leave')}
        </Button>
      </Actions>
    </Modal>
  );
}
