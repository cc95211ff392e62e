import { PageFailed, PageLoading } from '../../components/ui/PageLoading';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, ButtonLink } from '../../components/ui/Button';
import { ElapsedTime } from '../../components/ui/ElapsedTime';
import { useT } from '../../i18n/useT';
import { fetchNote } from '../../services/api/endingnote';
import { fetchDashboard, fetchTimeCapsuleStatus, homeKeys } from '../../services/api/home';
import { firstVisit } from '../../services/persistence/firstVisit';
import { useSession } from '../../services/session/useSession';
import { Page, Panel } from '../../components/ui/pageLayout';
import { fullName, MemberList, MemberRow } from '../connection/MemberRow';
import { targetOf, textOf } from '../notification/notificationText';
import { ItemList, Muted, NextStep } from './homeParts';

/** One dashboard card: a heading, what there is, and the next step. */
function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Panel aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </Panel>
  );
}

/** A first-time member's welcome: the three first steps, until they dismiss it. */
function Welcome({ userId, memorialPageId }: { userId: string; memorialPageId: string | null }) {
  const t = useT();
  const [shown, setShown] = useState(firstVisit.isFirst);
  if (!shown) return null;
  const steps = [
    {
      to: memorialPageId ? `/memory/${encodeURIComponent(memorialPageId)}` : '/memory/top/me',
      label: t('welcome-step-memorial'),
    },
    { to: `/endingnote/${encodeURIComponent(userId)}`, label: t('welcome-step-note') },
    { to: '/timecapsule/new', label: t('welcome-step-letter') },
  ];
  return (
    <Card id="dashboard-welcome" title={t('welcome-heading')}>
      <p>{t('welcome-body')}</p>
      <ol>
        {steps.map((step) => (
          <li key={step.to}>
            <Link to={step.to}>{step.label}</Link>
          </li>
        ))}
      </ol>
      <NextStep>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => {
            firstVisit.end();
            setShown(false);
          }}
        >
          {t('welcome-dismiss')}
        </Button>
      </NextStep>
    </Card>
  );
}

function OwnPageCard({ memorialPageId }: { memorialPageId: string | null }) {
  const t = useT();
  return (
    <Card id="dashboard-own-page" title={t('dashboard-own-page-heading')}>
      {memorialPageId ? (
        <NextStep>
          <ButtonLink to={`/memory/${encodeURIComponent(memorialPageId)}`}>
            {t('dashboard-own-page-open')}
          </ButtonLink>
        </NextStep>
      ) : (
        <>
          <p>{t('dashboard-own-page-empty')}</p>
          <NextStep>
            <ButtonLink to="/memory/top/me">{t('dashboard-own-page-create')}</ButtonLink>
          </NextStep>
        </>
      )}
    </Card>
  );
}

function EndingNoteCard({ userId }: { userId: string }) {
  const t = useT();
  const note = useQuery({ queryKey: ['endingnote', userId], queryFn: () => fetchNote(userId) });
  const filled = note.data?.sections.reduce((sum, s) => sum + s.completion.filled, 0) ?? 0;
  const total = note.data?.sections.reduce((sum, s) => sum + s.completion.total, 0) ?? 0;
  const started = note.data?.sections.some((section) => section.updatedAt !== null) ?? false;
  const label = t('dashboard-endingnote-progress', { filled, total });
  return (
    <Card id="dashboard-endingnote" title={t('dashboard-endingnote-heading')}>
      {note.isError && <p role="alert">{t('dashboard-load-error')}</p>}
      {note.isSuccess && (
        <>
          {started ? (
            <p>
              {label}
              <progress value={filled} max={total} aria-label={label} />
            </p>
          ) : (
            <p>{t('dashboard-endingnote-empty')}</p>
          )}
          <NextStep>
            <ButtonLink to={`/endingnote/${encodeURIComponent(userId)}`}>
              {t(started ? 'dashboard-endingnote-continue' : 'dashboard-endingnote-start')}
            </ButtonLink>
          </NextStep>
        </>
      )}
    </Card>
  );
}

function TimeCapsuleCard() {
  const t = useT();
  const status = useQuery({ queryKey: ['home', 'timecapsule'], queryFn: fetchTimeCapsuleStatus });
  const empty = status.data && status.data.waiting === 0 && status.data.received === 0;
  return (
    <Card id="dashboard-timecapsule" title={t('dashboard-timecapsule-heading')}>
      {status.isError && <p role="alert">{t('dashboard-load-error')}</p>}
      {status.data &&
        (empty ? (
          <>
            <p>{t('dashboard-timecapsule-empty')}</p>
            <NextStep>
              <ButtonLink to="/timecapsule">{t('dashboard-timecapsule-write')}</ButtonLink>
            </NextStep>
          </>
        ) : (
          <>
            <ItemList>
              <li>{t('dashboard-timecapsule-waiting', { count: status.data.waiting })}</li>
              <li>
                {t('dashboard-timecapsule-received', {
                  count: status.data.received,
                  unopened: status.data.unopened,
                })}
              </li>
            </ItemList>
            <NextStep>
              <ButtonLink to="/timecapsule/list">{t('dashboard-timecapsule-open')}</ButtonLink>
            </NextStep>
          </>
        ))}
    </Card>
  );
}

/** /dashboard (home tab): the member's own page, note, letters, notifications and news. */
export function Component() {
  const t = useT();
  const { user } = useSession();
  const summary = useQuery({ queryKey: homeKeys.dashboard, queryFn: fetchDashboard });
  const now = new Date();
  if (summary.isPending) {
    return <PageLoading title={t('dashboard-title')} />;
  }
  if (summary.isError) {
    return <PageFailed title={t('dashboard-title')} message={t('dashboard-load-error')} />;
  }
  const { memorialPageId, recentNotifications, connectionsNews } = summary.data;
  return (
    <Page>
      <h1>{t('dashboard-title')}</h1>
      {user && <Welcome userId={user.id} memorialPageId={memorialPageId} />}
      <OwnPageCard memorialPageId={memorialPageId} />
      {user && <EndingNoteCard userId={user.id} />}
      <TimeCapsuleCard />
      <Card id="dashboard-notifications" title={t('dashboard-notifications-heading')}>
        {recentNotifications.length === 0 ? (
          <p>{t('dashboard-notifications-empty')}</p>
        ) : (
          <ItemList>
            {recentNotifications.map((item) => (
              <li key={item.id}>
                <Link to={targetOf(item)}>{textOf(t, item)}</Link>{' '}
                <Muted>
                  <ElapsedTime at={item.createdAt} now={now} />
                </Muted>
              </li>
            ))}
          </ItemList>
        )}
        <NextStep>
          <ButtonLink to="/notification/list" $variant="secondary">
            {t('dashboard-notifications-all')}
          </ButtonLink>
        </NextStep>
      </Card>
      <Card id="dashboard-news" title={t('dashboard-news-heading')}>
        {connectionsNews.length === 0 ? (
          <>
            <p>{t('dashboard-news-empty')}</p>
            <NextStep>
              <ButtonLink to="/user-search">{t('dashboard-news-search')}</ButtonLink>
            </NextStep>
          </>
        ) : (
          <MemberList>
            {connectionsNews.map((news) => (
              <MemberRow key={`${news.kind}-${news.member.userId}`} member={news.member}>
                {news.kind === 'page_updated' && news.member.memorialPageId ? (
                  <Link to={`/memory/${encodeURIComponent(news.member.memorialPageId)}`}>
                    {t('dashboard-news-page-updated', { name: fullName(news.member) })}
                  </Link>
                ) : (
                  <span>{t('dashboard-news-connected', { name: fullName(news.member) })}</span>
                )}
                <Muted>
                  <ElapsedTime at={news.at} now={now} />
                </Muted>
              </MemberRow>
            ))}
          </MemberList>
        )}
      </Card>
    </Page>
  );
}
