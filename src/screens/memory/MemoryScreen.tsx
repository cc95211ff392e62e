import { useDocumentTitle, useSiteTitle } from '../../components/shell/documentTitle';
import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useParams, type LoaderFunctionArgs } from 'react-router';
import styled from 'styled-components';
import { ButtonLink } from '../../components/ui/Button';
import { RouteLoading } from '../../components/shell/RouteLoading';
import { useT } from '../../i18n/useT';
import { useSession } from '../../services/session/useSession';
import { Page, Panel } from '../../components/ui/pageLayout';
import { AdminsSection } from './AdminsSection';
import { AlbumSection } from './AlbumSection';
import { HistorySection } from './HistorySection';
import { prefetchVisitorReads, unavailableReason, usePageLists, usePageQuery } from './pageQuery';
import { PageUnavailable } from './PageUnavailable';
import { memoryPath } from './memorialPageNames';
import { Actions } from './sectionLayout';
import { ProfileSection } from './ProfileSection';

// Sharing, privacy and the keepsake are offered to admins only: a visitor's page never loads them.
const ShareSection = lazy(() =>
  import('./ShareSection').then((module) => ({ default: module.ShareSection })),
);
const SettingsSection = lazy(() =>
  import('./SettingsSection').then((module) => ({ default: module.SettingsSection })),
);
const KeepsakeSection = lazy(() =>
  import('./KeepsakeSection').then((module) => ({ default: module.KeepsakeSection })),
);

/** Holds the footer below the fold until the page is read, so it does not jump (CLS). */
const LoadingPage = styled(Page)`
  min-height: 100vh;
`;

const PageActions = styled(Actions)`
  margin: 16px 0;
`;

/**
 * Runs as soon as this chunk is in, before the first render of the screen: a signed-out
 * visitor's reads are prefetched while the session check is still under way.
 */
export function loader({ params }: LoaderFunctionArgs) {
  prefetchVisitorReads(params.memorialPageId ?? '');
  return null;
}

/**
 * /memory/{memorialPageId}: profile and anniversaries, album, history, admins, the way to
 * the mourning page; admins (mode admin_edit) also edit, set privacy, invite and take the
 * page's keepsake. What each may change is enforced by the server; the mode only decides
 * what is offered.
 */
export function Component() {
  const t = useT();
  const { memorialPageId = '' } = useParams();
  const { status } = useSession();
  const page = usePageQuery(memorialPageId);
  usePageLists(memorialPageId);
  const name = page.data && `${page.data.lastName} ${page.data.firstName}`.trim();
  useDocumentTitle(useSiteTitle(name && t('page-title-memory-of', { name })));
  const { hash } = useLocation();
  const loaded = page.isSuccess;
  // A link to a section (#album, #history, #share) scrolls there once the page is shown.
  useEffect(() => {
    if (loaded && hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [loaded, hash]);
  if (page.isError) return <PageUnavailable reason={unavailableReason(page.error)} />;
  if (!page.data) {
    return (
      <LoadingPage aria-busy="true">
        <RouteLoading />
      </LoadingPage>
    );
  }
  const canEdit = page.data.mode === 'admin_edit';
  return (
    <Page>
      <ProfileSection key={page.data.memorialPageId} page={page.data} />
      <PageActions>
        <ButtonLink to={`${memoryPath(memorialPageId)}/mourning`}>
          {t('memory-to-mourning', { count: page.data.flowerCount })}
        </ButtonLink>
        {status === 'authenticated' && (
          <ButtonLink to="/memory/new" $variant="secondary">
            {t('memory-new-link')}
          </ButtonLink>
        )}
      </PageActions>
      <AlbumSection memorialPageId={memorialPageId} canEdit={canEdit} />
      <HistorySection memorialPageId={memorialPageId} canEdit={canEdit} />
      <AdminsSection memorialPageId={memorialPageId} />
      {canEdit && (
        <Suspense fallback={null}>
          <ShareSection page={page.data} />
          <SettingsSection key={`${page.data.privacy}-${page.data.searchable}`} page={page.data} />
          <KeepsakeSection memorialPageId={page.data.memorialPageId} />
        </Suspense>
      )}
      {!canEdit && status === 'authenticated' && (
        <Panel>
          <p>{t('memory-viewer-note')}</p>
        </Panel>
      )}
    </Page>
  );
}
