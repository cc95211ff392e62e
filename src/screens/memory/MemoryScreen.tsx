import { useEffect } from 'react';
import { useLocation, useParams } from 'react-router';
import styled from 'styled-components';
import { ButtonLink } from '../../components/ui/Button';
import { RouteLoading } from '../../components/shell/RouteLoading';
import { useT } from '../../i18n/useT';
import { useSession } from '../../services/session/useSession';
import { Page, Panel } from '../endingnote/layout';
import { AdminsSection } from './AdminsSection';
import { AlbumSection } from './AlbumSection';
import { HistorySection } from './HistorySection';
import { unavailableReason, usePageLists, usePageQuery } from './pageQuery';
import { PageUnavailable } from './PageUnavailable';
import { memoryPath, Actions } from './parts';
import { ProfileSection } from './ProfileSection';
import { SettingsSection } from './SettingsSection';
import { ShareSection } from './ShareSection';

const PageActions = styled(Actions)`
  margin: 16px 0;
`;

/**
 * /memory/{memorialPageId}: profile and anniversaries, album, history, admins, the way to
 * the mourning page; admins (mode admin_edit) also edit, set privacy and invite. What each
 * may change is enforced by the server; the mode only decides what is offered.
 */
export function Component() {
  const t = useT();
  const { memorialPageId = '' } = useParams();
  const { status } = useSession();
  const page = usePageQuery(memorialPageId);
  usePageLists(memorialPageId);
  const { hash } = useLocation();
  const loaded = page.isSuccess;
  // A link to a section (#album, #history, #share) scrolls there once the page is shown.
  useEffect(() => {
    if (loaded && hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [loaded, hash]);
  if (page.isError) return <PageUnavailable reason={unavailableReason(page.error)} />;
  if (!page.data) return <RouteLoading />;
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
        <>
          <ShareSection page={page.data} />
          <SettingsSection key={`${page.data.privacy}-${page.data.searchable}`} page={page.data} />
        </>
      )}
      {!canEdit && status === 'authenticated' && (
        <Panel>
          <p>{t('memory-viewer-note')}</p>
        </Panel>
      )}
    </Page>
  );
}
