import { PageFailed, PageLoading } from '../../components/ui/PageLoading';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import styled from 'styled-components';
import { Avatar } from '../../components/ui/Avatar';
import { ButtonLink } from '../../components/ui/Button';
import { ElapsedTime } from '../../components/ui/ElapsedTime';
import { useT } from '../../i18n/useT';
import { fetchMourning, homeKeys, type MourningPage } from '../../services/api/home';
import { fullName } from '../connection/MemberRow';
import { ItemList, Muted, NextStep, useCalendarDate } from '../dashboard/homeParts';
import { Page, Panel } from '../../components/ui/pageLayout';

const mourningPath = (memorialPageId: string) =>
  `/memory/${encodeURIComponent(memorialPageId)}/mourning`;

const PageLink = styled(Link)`
  display: flex;
  align-items: center;
  gap: 12px;
  min-height: 44px;
  color: ${({ theme }) => theme.colours.text};
  p {
    margin: 0;
  }
`;

const Quote = styled.p`
  margin: 4px 0;
  overflow-wrap: anywhere;
  white-space: pre-line;
`;

function PageEntry({ page }: { page: MourningPage }) {
  const t = useT();
  const name = fullName(page);
  const calendarDate = useCalendarDate();
  const date = (iso: string | null) => (iso ? calendarDate(iso) : '');
  return (
    <li>
      <PageLink to={mourningPath(page.memorialPageId)}>
        <Avatar image={page.photoUrl} name={name} />
        <span>
          <p>{page.type === 'pet' ? t('mourning-tab-pet-name', { name }) : name}</p>
          {(page.birthDate || page.deathDate) && (
            <Muted>
              {t('mourning-tab-life-dates', {
                birth: date(page.birthDate),
                death: date(page.deathDate),
              })}
            </Muted>
          )}
        </span>
      </PageLink>
    </li>
  );
}

/** /mourning (the mourning tab): pages to remember, coming anniversaries, recent condolences. */
export function Component() {
  const t = useT();
  const tab = useQuery({ queryKey: homeKeys.mourning, queryFn: fetchMourning });
  const calendarDate = useCalendarDate();
  const now = new Date();
  if (tab.isPending) {
    return <PageLoading title={t('mourning-tab-title')} />;
  }
  if (tab.isError) {
    return <PageFailed title={t('mourning-tab-title')} message={t('dashboard-load-error')} />;
  }
  const { pages, upcomingAnniversaries, recentCondolences } = tab.data;
  const nameOfPage = new Map(pages.map((page) => [page.memorialPageId, fullName(page)]));
  return (
    <Page>
      <h1>{t('mourning-tab-title')}</h1>
      <Panel aria-labelledby="mourning-pages">
        <h2 id="mourning-pages">{t('mourning-tab-pages-heading')}</h2>
        {pages.length === 0 ? (
          <>
            <p>{t('mourning-tab-pages-empty')}</p>
            <NextStep>
              <ButtonLink to="/connection">{t('mourning-tab-pages-connections')}</ButtonLink>
            </NextStep>
          </>
        ) : (
          <ItemList>
            {pages.map((page) => (
              <PageEntry key={page.memorialPageId} page={page} />
            ))}
          </ItemList>
        )}
      </Panel>
      <Panel aria-labelledby="mourning-anniversaries">
        <h2 id="mourning-anniversaries">{t('mourning-tab-anniversaries-heading')}</h2>
        {upcomingAnniversaries.length === 0 ? (
          <p>{t('mourning-tab-anniversaries-empty')}</p>
        ) : (
          <ItemList>
            {upcomingAnniversaries.map((anniversary) => (
              <li key={`${anniversary.memorialPageId}-${anniversary.code}`}>
                <Link to={mourningPath(anniversary.memorialPageId)}>
                  {t('mourning-tab-anniversary', {
                    name: fullName(anniversary),
                    anniversary: t(`anniversary-${anniversary.code}`),
                    date: calendarDate(anniversary.date),
                  })}
                </Link>
              </li>
            ))}
          </ItemList>
        )}
      </Panel>
      <Panel aria-labelledby="mourning-condolences">
        <h2 id="mourning-condolences">{t('mourning-tab-condolences-heading')}</h2>
        {recentCondolences.length === 0 ? (
          <p>{t('mourning-tab-condolences-empty')}</p>
        ) : (
          <ItemList>
            {recentCondolences.map((condolence) => (
              <li key={condolence.id}>
                <Link to={mourningPath(condolence.memorialPageId)}>
                  {t('mourning-tab-condolence-on', {
                    author: `${condolence.authorLastName} ${condolence.authorFirstName}`.trim(),
                    name: nameOfPage.get(condolence.memorialPageId) ?? '',
                  })}
                </Link>
                <Quote>{condolence.body}</Quote>
                <Muted>
                  <ElapsedTime at={condolence.createdAt} now={now} />
                </Muted>
              </li>
            ))}
          </ItemList>
        )}
      </Panel>
    </Page>
  );
}
