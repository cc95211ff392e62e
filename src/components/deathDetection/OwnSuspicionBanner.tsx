import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { Button } from '../ui/Button';

/** The member's own open case as the header flow found it, and what became of the cancel. */
export interface OwnCase {
  state: 'suspected' | 'grace';
  outcome: 'cancelling' | 'cancelled' | 'failed';
  /** Mails about the case that had not gone yet and were withdrawn by the cancel. */
  mailsWithdrawn?: number;
}

const Strip = styled.section`
  margin: 0;
  padding: 12px 16px;
  border-bottom: 3px solid ${({ theme }) => theme.colours.attention};
  background: ${({ theme }) => theme.colours.surface};
  h2 {
    margin: 0 0 6px;
    font-size: 1.05rem;
  }
  p {
    margin: 4px 0;
  }
`;

const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin-top: 8px;
`;

/**
 * Shown on every page to a member whose death was suspected (or confirmed and in its grace
 * period): opening the app signed in cancels it, and the banner says so, or offers the
 * cancel again when that call failed.
 */
export function OwnSuspicionBanner({
  ownCase,
  onRetry,
  onDismiss,
}: {
  ownCase: OwnCase;
  onRetry: () => void;
  onDismiss: () => void;
}) {
  const t = useT();
  return (
    <Strip role={ownCase.outcome === 'failed' ? 'alert' : 'status'} aria-labelledby="own-suspicion">
      <h2 id="own-suspicion">{t(`own-suspicion-title-${ownCase.state}`)}</h2>
      <p>{t(`own-suspicion-${ownCase.outcome}`)}</p>
      {/* What comes next only once it is cancelled: before, it would contradict the banner. */}
      {ownCase.outcome === 'cancelled' && (ownCase.mailsWithdrawn ?? 0) > 0 && (
        <p>{t('own-suspicion-mails-withdrawn', { count: String(ownCase.mailsWithdrawn) })}</p>
      )}
      {ownCase.outcome === 'cancelled' && <p>{t('own-suspicion-how')}</p>}
      <Buttons>
        {ownCase.outcome === 'failed' && (
          <Button type="button" onClick={onRetry}>
            {t('own-suspicion-cancel')}
          </Button>
        )}
        {ownCase.outcome !== 'cancelling' && (
          <Button type="button" $variant="secondary" onClick={onDismiss}>
            {t('own-suspicion-dismiss')}
          </Button>
        )}
      </Buttons>
    </Strip>
  );
}
