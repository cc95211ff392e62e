import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { AppStoreLinks } from '../appStore/AppStoreLinks';
import { Button } from '../ui/Button';

const Actions = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
  margin-top: 24px;
`;

/**
 * Where a death confirmation starts (the death modal, a case page): the action inside the
 * app, the store links elsewhere (the action needs the app's signing, so it is offered only in its web view).
 */
export function ConfirmationStart({ inApp, onStart }: { inApp: boolean; onStart: () => void }) {
  const t = useT();
  return inApp ? (
    <Actions>
      <Button type="button" onClick={onStart}>
        {t('death-modal-start')}
      </Button>
    </Actions>
  ) : (
    <>
      <p>{t('death-modal-needs-app')}</p>
      <AppStoreLinks />
    </>
  );
}
