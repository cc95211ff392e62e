import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import styled from 'styled-components';
import { formatCalendarDate } from '../../components/ui/calendarDate';
import { useT } from '../../i18n/useT';
import type { MemorialPage } from '../../services/api/memorial';
import { Panel } from '../../components/ui/pageLayout';
import { pageKana, pageName } from './memorialPageNames';
import { PlainList, SectionTitle } from './sectionLayout';

// Editing (the form, its wire schemas and zod) is for admins only: a visitor never loads it.
const ProfileEditor = lazy(() =>
  import('./ProfileEditor').then((module) => ({ default: module.ProfileEditor })),
);

const Header = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 16px;
  align-items: center;
  h1 {
    margin: 0;
    font-size: 1.5rem;
  }
  p {
    margin: 4px 0 0;
  }
`;

const Portrait = styled.img`
  width: 120px;
  height: 120px;
  object-fit: cover;
  border-radius: 12px;
  background: ${({ theme }) => theme.colours.border};
`;

const Anniversaries = styled.section`
  margin-top: 20px;
`;

const MourningNotice = styled.p`
  margin: 16px 0 0;
  padding: 12px 16px;
  border: 1px solid ${({ theme }) => theme.colours.border};
  border-radius: 8px;
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: 4px 12px;
  margin: 16px 0 0;
  dt {
    font-weight: bold;
  }
  dd {
    margin: 0;
  }
`;

/** The profile: names with kana, photo, dates, the kind of animal; admins may edit it. */
export function ProfileSection({ page }: { page: MemorialPage }) {
  const t = useT();
  const isPet = page.type === 'pet';
  const name = pageName(page);
  return (
    <Panel aria-labelledby="memory-profile-title">
      <Header>
        {page.photoThumbnailUrl && (
          <Portrait
            src={page.photoThumbnailUrl}
            alt={t('memory-photo-alt', { name })}
            width={120}
            height={120}
            fetchPriority="high"
          />
        )}
        <div>
          <h1 id="memory-profile-title">{name}</h1>
          <p>{pageKana(page)}</p>
        </div>
      </Header>
      {page.mourningSince && (
        <MourningNotice role="note">
          {t('memory-mourning-notice', { name })}{' '}
          <Link to={`/memory/${encodeURIComponent(page.memorialPageId)}/mourning`}>
            {t('memory-mourning-notice-link')}
          </Link>
        </MourningNotice>
      )}
      <Facts>
        {isPet && page.animalKind && (
          <>
            <dt>{t('memory-animal-kind')}</dt>
            <dd>{page.animalKind}</dd>
          </>
        )}
        {page.birthDate && (
          <>
            <dt>{t('memory-field-birth-date')}</dt>
            <dd>{formatCalendarDate(page.birthDate)}</dd>
          </>
        )}
        {page.deathDate && (
          <>
            <dt>{t('memory-field-death-date')}</dt>
            <dd>{formatCalendarDate(page.deathDate)}</dd>
          </>
        )}
      </Facts>
      {page.anniversaries.length > 0 && (
        <Anniversaries aria-labelledby="memory-anniversaries-title">
          <SectionTitle id="memory-anniversaries-title" as="h2">
            {t('memory-anniversaries-title')}
          </SectionTitle>
          <PlainList>
            {page.anniversaries.map((service) => (
              <li key={service.code}>
                {t(`anniversary-${service.code}`)} {formatCalendarDate(service.date)}
              </li>
            ))}
          </PlainList>
        </Anniversaries>
      )}
      {page.mode === 'admin_edit' && (
        <Suspense fallback={null}>
          <ProfileEditor page={page} />
        </Suspense>
      )}
    </Panel>
  );
}
