import { useLocation } from 'react-router';
import { ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { Page, Panel } from '../../components/ui/pageLayout';
import type { PageUnavailable as Reason } from './pageQuery';

/** What shows instead of a page one may not see: the same for a page that does not exist. */
export function PageUnavailable({ reason }: { reason: Reason }) {
  const t = useT();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <Page>
      <Panel>
        <h1>{t(`memory-unavailable-${reason}-title`)}</h1>
        <p role="alert">{t(`memory-unavailable-${reason}`)}</p>
        {reason === 'sign-in' && (
          <ButtonLink to={`/login?callbackUrl=${encodeURIComponent(here)}`}>
            {t('memory-sign-in')}
          </ButtonLink>
        )}
      </Panel>
    </Page>
  );
}
