import { useState } from 'react';
import { Button } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { Actions, FormMessage } from './authFormParts';

type Phase = 'idle' | 'sending' | 'sent' | 'failed';

/**
 * The offer to send a mail the member is waiting for (activation, password reset) again:
 * a mail that never arrived is not a dead end. The server answers the same whether or not
 * it sent anything, so the message says only that a new mail is on its way if it can be.
 */
export function ResendMail({ resend }: { resend: () => Promise<void> }) {
  const t = useT();
  const [phase, setPhase] = useState<Phase>('idle');
  const send = async () => {
    setPhase('sending');
    try {
      await resend();
      setPhase('sent');
    } catch {
      setPhase('failed');
    }
  };
  return (
    <>
      {phase === 'sent' && <FormMessage kind="info">{t('mail-resend-done')}</FormMessage>}
      {phase === 'failed' && <FormMessage>{t('error-unexpected')}</FormMessage>}
      <Actions>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => void send()}
          disabled={phase === 'sending'}
        >
          {t(phase === 'sending' ? 'mail-resend-sending' : 'mail-resend')}
        </Button>
      </Actions>
    </>
  );
}
