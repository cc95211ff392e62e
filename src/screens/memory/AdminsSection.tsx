import { useT } from '../../i18n/useT';
import { MemberList, MemberRow } from '../connection/MemberRow';
import { Panel } from '../../components/ui/pageLayout';
import { useAdmins } from './pageQuery';
import { Muted, SectionTitle } from './sectionLayout';

/** The people who keep the page together (admins, and viewers when there are any). */
export function AdminsSection({ memorialPageId }: { memorialPageId: string }) {
  const t = useT();
  const admins = useAdmins(memorialPageId);
  return (
    <Panel id="admins" aria-labelledby="memory-admins-title">
      <SectionTitle id="memory-admins-title">{t('memory-admins-title')}</SectionTitle>
      {admins.isError && <p role="alert">{t('memory-load-error')}</p>}
      {admins.isSuccess && admins.data.length === 0 && <Muted>{t('memory-admins-empty')}</Muted>}
      <MemberList>
        {(admins.data ?? []).map((admin) => (
          <MemberRow key={admin.userId} member={{ ...admin, memorialPageId: null }}>
            <small>{t(`memory-role-${admin.role}`)}</small>
          </MemberRow>
        ))}
      </MemberList>
    </Panel>
  );
}
