import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, ButtonLink } from '../../components/ui/Button';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import {
  acceptConnectionRequest,
  cancelConnectionRequest,
  changeRelationship,
  declineConnectionRequest,
  fetchConnections,
  fetchRequests,
  removeConnection,
  socialKeys,
  type Connection,
  type ConnectionRequest,
} from '../../services/api/social';
import type { RelationshipValue } from '../../../contract/rules/social';
import { Page, Panel } from '../../components/ui/pageLayout';
import { fullName, MemberList, MemberRow } from './MemberRow';
import { RelationshipSelect } from './RelationshipSelect';

/** After any change the lists, search results and the badge are read again. */
function useRefreshSocial() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: socialKeys.connections }),
      queryClient.invalidateQueries({ queryKey: socialKeys.requests }),
      queryClient.invalidateQueries({ queryKey: ['user-search'] }),
      queryClient.invalidateQueries({ queryKey: socialKeys.unreadCount }),
    ]);
}

/** Runs an action; a failure is told in a toast and the lists are read again either way. */
function useSocialAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const t = useT();
  const refresh = useRefreshSocial();
  return useMutation({
    mutationFn: (args: A) => action(...args),
    onError: () => void showToast(t('connection-action-error'), 'error'),
    onSettled: refresh,
  });
}

function ReceivedRequest({ request }: { request: ConnectionRequest }) {
  const t = useT();
  const [relationship, setRelationship] = useState<RelationshipValue>(request.relationship);
  const accept = useSocialAction(acceptConnectionRequest);
  const decline = useSocialAction(declineConnectionRequest);
  const busy = accept.isPending || decline.isPending;
  const name = fullName(request.member);
  return (
    <MemberRow member={request.member}>
      <RelationshipSelect
        label={t('connection-relationship-label', { name })}
        value={relationship}
        onChange={setRelationship}
        disabled={busy}
      />
      <Button disabled={busy} onClick={() => accept.mutate([request.requestId, relationship])}>
        {t('connection-accept')}
      </Button>
      <Button
        $variant="secondary"
        disabled={busy}
        onClick={() => decline.mutate([request.requestId])}
      >
        {t('connection-decline')}
      </Button>
    </MemberRow>
  );
}

function SentRequest({ request }: { request: ConnectionRequest }) {
  const t = useT();
  const cancel = useSocialAction(cancelConnectionRequest);
  return (
    <MemberRow member={request.member}>
      <small>
        {t('connection-requested-as', {
          relationship: t(`relationship-${request.relationship}`),
        })}
      </small>
      <Button
        $variant="secondary"
        disabled={cancel.isPending}
        onClick={() => cancel.mutate([request.requestId])}
      >
        {t('connection-cancel')}
      </Button>
    </MemberRow>
  );
}

function ConnectedMember({ connection }: { connection: Connection }) {
  const t = useT();
  const change = useSocialAction(changeRelationship);
  const remove = useSocialAction(removeConnection);
  const [confirming, setConfirming] = useState(false);
  const name = fullName(connection);
  return (
    <MemberRow member={connection}>
      <RelationshipSelect
        label={t('connection-relationship-label', { name })}
        value={connection.relationship}
        onChange={(relationship) => change.mutate([connection.userId, relationship])}
        disabled={change.isPending}
      />
      {connection.theirRelationship && (
        <small>
          {t('connection-their-relationship', {
            relationship: t(`relationship-${connection.theirRelationship}`),
          })}
        </small>
      )}
      {confirming ? (
        <>
          <span role="alert">{t('connection-remove-confirm', { name })}</span>
          <Button disabled={remove.isPending} onClick={() => remove.mutate([connection.userId])}>
            {t('connection-remove')}
          </Button>
          <Button $variant="secondary" onClick={() => setConfirming(false)}>
            {t('connection-remove-keep')}
          </Button>
        </>
      ) : (
        <Button $variant="secondary" onClick={() => setConfirming(true)}>
          {t('connection-remove')}
        </Button>
      )}
    </MemberRow>
  );
}

/** /connection: requests to answer, requests waiting, and the members one is connected with. */
export function Component() {
  const t = useT();
  const requests = useQuery({ queryKey: socialKeys.requests, queryFn: fetchRequests });
  const connections = useQuery({ queryKey: socialKeys.connections, queryFn: fetchConnections });
  if (requests.isError || connections.isError) {
    return (
      <Page>
        <h1>{t('connection-title')}</h1>
        <p role="alert">{t('connection-load-error')}</p>
      </Page>
    );
  }
  const received = requests.data?.received ?? [];
  const sent = requests.data?.sent ?? [];
  return (
    <Page>
      <h1>{t('connection-title')}</h1>
      {received.length > 0 && (
        <Panel aria-labelledby="connection-received">
          <h2 id="connection-received">{t('connection-received-heading')}</h2>
          <MemberList>
            {received.map((request) => (
              <ReceivedRequest key={request.requestId} request={request} />
            ))}
          </MemberList>
        </Panel>
      )}
      <Panel aria-labelledby="connection-list">
        <h2 id="connection-list">{t('connection-list-heading')}</h2>
        {connections.data && connections.data.length === 0 ? (
          <>
            <p>{t('connection-empty')}</p>
            <ButtonLink to="/user-search">{t('connection-search-link')}</ButtonLink>
          </>
        ) : (
          <MemberList>
            {connections.data?.map((connection) => (
              <ConnectedMember key={connection.userId} connection={connection} />
            ))}
          </MemberList>
        )}
      </Panel>
      {sent.length > 0 && (
        <Panel aria-labelledby="connection-sent">
          <h2 id="connection-sent">{t('connection-sent-heading')}</h2>
          <MemberList>
            {sent.map((request) => (
              <SentRequest key={request.requestId} request={request} />
            ))}
          </MemberList>
        </Panel>
      )}
    </Page>
  );
}
