import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { fromPromise } from 'xstate';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Notice } from '../../components/ui/Notice';
import { useT } from '../../i18n/useT';
import {
  integrationLinkMachine,
  linkRequestOf,
  type IntegrationLinkRequest,
} from '../../machines/integrationLink';
import { linkIntegration, unlinkIntegration } from '../../services/api/deathDetection';
import { connectedSession } from '../../services/http/connection';
import { Actions, Page, Panel } from '../../components/ui/pageLayout';
import { coded, CodedFailure } from '../deathAdministration/apiFailure';
import { inspectOption } from '../../services/clientState/inspector';

/** The member's own access token: the link call carries it in its body. */
async function linkWithOwnToken(request: IntegrationLinkRequest) {
  const accessToken = await connectedSession.accessToken();
  if (!accessToken) throw new CodedFailure('invalid_token');
  await coded(() => linkIntegration({ ...request, accessToken }));
}

/**
 * /integration/link?client_id=…&fpos_user_id=…&expires=…&signature=…: an external service the
 * member uses (e.g. a funeral company) asks to be linked, so that it may report a suspected
 * death; the service's proof (docs/integrations.md) goes to the server with the consent.
 */
export function Component() {
  const t = useT();
  const [params] = useSearchParams();
  const machine = useMemo(
    () =>
      integrationLinkMachine.provide({
        actors: {
          link: fromPromise(({ input }) => linkWithOwnToken(input)),
          unlink: fromPromise(({ input }) => unlinkIntegration(input.clientId)),
        },
      }),
    [],
  );
  const actor = useActorRef(machine, inspectOption());
  const query = params.toString();
  useEffect(() => {
    const link = new URLSearchParams(query);
    const request = linkRequestOf({
      clientId: link.get('client_id'),
      fposUserId: link.get('fpos_user_id'),
      expires: link.get('expires'),
      signature: link.get('signature'),
    });
    actor.send({ type: 'OPEN', request });
  }, [actor, query]);
  const snapshot = useSelector(actor, (state) => state);
  const { error } = snapshot.context;
  const client = snapshot.context.clientId;
  const busy = snapshot.matches('linking') || snapshot.matches('unlinking');

  return (
    <Page aria-busy={busy}>
      <h1>{t('integration-link-title')}</h1>
      <Panel>
        {snapshot.matches('invalid') && <p role="alert">{t('integration-link-invalid')}</p>}
        {(snapshot.matches('consenting') || snapshot.matches('linking')) && (
          <>
            <p>{t('integration-link-explained', { client })}</p>
            <p>{t('integration-link-limits')}</p>
            <p>{t('integration-link-safety')}</p>
            {error && (
              <Notice $tone="attention" role="alert">
                {t(`integration-link-error-${error}`)}
              </Notice>
            )}
            <Actions>
              <Button type="button" disabled={busy} onClick={() => actor.send({ type: 'CONSENT' })}>
                {t('integration-link-consent')}
              </Button>
              <Button
                type="button"
                $variant="secondary"
                disabled={busy}
                onClick={() => actor.send({ type: 'DECLINE' })}
              >
                {t('integration-link-decline')}
              </Button>
            </Actions>
          </>
        )}
        {(snapshot.matches('linked') || snapshot.matches('unlinking')) && (
          <>
            <Notice $tone="success" role="status">
              {t('integration-link-linked', { client })}
            </Notice>
            {error && <p role="alert">{t(`integration-link-error-${error}`)}</p>}
            <Actions>
              <Button
                type="button"
                $variant="secondary"
                disabled={busy}
                onClick={() => actor.send({ type: 'UNLINK' })}
              >
                {t('integration-link-unlink')}
              </Button>
              <ButtonLink to="/death-settings">{t('integration-link-settings')}</ButtonLink>
            </Actions>
          </>
        )}
        {snapshot.matches('unlinked') && (
          <p role="status">{t('integration-link-unlinked', { client })}</p>
        )}
        {snapshot.matches('declined') && <p role="status">{t('integration-link-declined')}</p>}
        <p>
          <Link to="/dashboard">{t('death-confirmation-home')}</Link>
        </p>
      </Panel>
    </Page>
  );
}
