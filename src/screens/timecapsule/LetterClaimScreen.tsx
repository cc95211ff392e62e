import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { claimLetter } from '../../services/api/timecapsule';
import {
  letterClaimPath,
  rememberLetterClaim,
} from '../../services/persistence/pendingLetterClaim';
import { useSession } from '../../services/session/useSession';
import { Actions, Page, Panel } from '../../components/ui/pageLayout';
import { letterPath } from './letterPaths';

type ClaimState = 'claiming' | 'notYours' | 'failed';

/** Signed in: claims the letter for this member and opens it. */
function Claim({ token }: { token: string }) {
  const t = useT();
  const navigate = useNavigate();
  const [state, setState] = useState<ClaimState>('claiming');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    claimLetter(token).then(
      (letterId) => {
        if (!current) return;
        if (letterId === null) setState('notYours');
        else void navigate(letterPath(letterId), { replace: true });
      },
      () => current && setState('failed'),
    );
    return () => {
      current = false;
    };
  }, [navigate, token, attempt]);

  if (state === 'claiming') return <p role="status">{t('timecapsule-claim-working')}</p>;
  if (state === 'notYours') {
    return (
      <>
        <p role="alert">{t('timecapsule-claim-not-yours')}</p>
        <Actions>
          <ButtonLink to="/logout" $variant="secondary">
            {t('timecapsule-claim-switch')}
          </ButtonLink>
        </Actions>
      </>
    );
  }
  return (
    <>
      <p role="alert">{t('timecapsule-claim-failed')}</p>
      <Button
        type="button"
        onClick={() => {
          setState('claiming');
          setAttempt(attempt + 1);
        }}
      >
        {t('timecapsule-retry')}
      </Button>
    </>
  );
}

/**
 * /timecapsule/claim?token=…: the link mailed to a recipient who was not a member. A visitor
 * logs in (and comes back here) or registers (the first sign-in after activation comes back
 * here); a member claims the letter — it works only for the address it was sent to — and
 * reads it.
 */
export function Component() {
  const t = useT();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  const session = useSession();
  const here = letterClaimPath(token);

  let content;
  if (token === '') content = <p role="alert">{t('timecapsule-claim-no-token')}</p>;
  else if (session.status === 'loading') content = <p role="status">{t('timecapsule-loading')}</p>;
  else if (session.status === 'authenticated') content = <Claim token={token} />;
  else {
    content = (
      <>
        <p>{t('timecapsule-claim-lead')}</p>
        <Actions>
          <ButtonLink to={`/login?callbackUrl=${encodeURIComponent(here)}`}>
            {t('timecapsule-claim-login')}
          </ButtonLink>
          <Button
            type="button"
            $variant="secondary"
            onClick={() => {
              rememberLetterClaim(token);
              void navigate('/register-top?register=true');
            }}
          >
            {t('timecapsule-claim-register')}
          </Button>
        </Actions>
      </>
    );
  }
  return (
    <Page>
      <h1>{t('timecapsule-claim-title')}</h1>
      <Panel>{content}</Panel>
    </Page>
  );
}
