import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import styled from 'styled-components';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import {
  acceptAdministration,
  deathKeys,
  fetchAdministeredUsers,
  type AdministeredUser,
} from '../../services/api/deathDetection';
import { fetchEntrustedArchives, entrustedKeys } from '../../services/api/dataExport';
import { ArchiveRow, PREPARING_POLL_MS, preparing } from '../mypage/ArchiveRow';
import { ItemList, Muted } from '../dashboard/homeParts';
import { Page, Panel } from '../../components/ui/pageLayout';
import { formatTokyoDate } from '../deathConfirmation/dates';

const Rows = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px 16px;
    padding: 12px 0;
    border-bottom: 1px solid ${({ theme }) => theme.colours.border};
  }
  li > :first-child {
    flex: 1 1 180px;
  }
`;

export const casePath = (userId: string) => `/death-administration/${encodeURIComponent(userId)}`;

function MemberRow({ member }: { member: AdministeredUser }) {
  const t = useT();
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => acceptAdministration(member.userId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deathKeys.administered }),
  });
  const name = t('death-person-name', { lastName: member.lastName, firstName: member.firstName });
  return (
    <li>
      <span>
        <Link to={casePath(member.userId)}>{name}</Link>
        <br />
        <Muted>{t(`death-state-${member.state}`)}</Muted>
      </span>
      {member.acceptedAt ? (
        <Muted>
          {t('death-administration-accepted', { date: formatTokyoDate(member.acceptedAt) })}
        </Muted>
      ) : (
        <Button type="button" disabled={accept.isPending} onClick={() => accept.mutate()}>
          {t('death-administration-accept', { name })}
        </Button>
      )}
      <ButtonLink to={casePath(member.userId)} $variant="secondary">
        {t('death-administration-open-case')}
      </ButtonLink>
      {accept.isError && <p role="alert">{t('death-settings-error-unexpected')}</p>}
    </li>
  );
}

/**
 * The archives released members chose to hand to the caller: shown only when there is one,
 * each downloaded as the member's own archive is (a link that works once).
 */
function EntrustedArchives() {
  const t = useT();
  const archives = useQuery({
    queryKey: entrustedKeys.list,
    queryFn: fetchEntrustedArchives,
    refetchInterval: (query) => (query.state.data?.some(preparing) ? PREPARING_POLL_MS : false),
  });
  if (!archives.data?.length) return null;
  return (
    <Panel aria-labelledby="death-administration-archives">
      <h2 id="death-administration-archives">{t('death-administration-archives')}</h2>
      <p>{t('death-administration-archives-explained')}</p>
      <ItemList>
        {archives.data.map((archive) => (
          <ArchiveRow
            key={archive.id}
            item={archive}
            heading={t('death-administration-archive-of', {
              name: t('death-person-name', {
                lastName: archive.member.lastName,
                firstName: archive.member.firstName,
              }),
            })}
          />
        ))}
      </ItemList>
    </Panel>
  );
}

/** /death-administration: the members who named the caller, each with their state. */
export function Component() {
  const t = useT();
  const members = useQuery({ queryKey: deathKeys.administered, queryFn: fetchAdministeredUsers });
  return (
    <Page aria-busy={members.isPending}>
      <h1>{t('death-administration-title')}</h1>
      <p>{t('death-administration-intro')}</p>
      <Panel aria-labelledby="death-administration-members">
        <h2 id="death-administration-members">{t('death-administration-members')}</h2>
        {members.isPending && <p>{t('dashboard-loading')}</p>}
        {members.isError && <p role="alert">{t('dashboard-load-error')}</p>}
        {members.data?.length === 0 && <p>{t('death-administration-none')}</p>}
        <Rows>
          {members.data?.map((member) => (
            <MemberRow key={member.userId} member={member} />
          ))}
        </Rows>
      </Panel>
      <EntrustedArchives />
      <p>
        <Link to="/death-settings">{t('death-administration-own-settings')}</Link>
      </p>
    </Page>
  );
}
