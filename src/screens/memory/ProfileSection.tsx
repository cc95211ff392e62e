import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import styled from 'styled-components';
import { UnsavedChangesDialog } from '../../components/form/UnsavedChangesDialog';
import { Button } from '../../components/ui/Button';
import { formatCalendarDate } from '../../components/ui/calendarDate';
import { useT } from '../../i18n/useT';
import {
  memorialKeys,
  updatePage,
  uploadImage,
  type MemorialPage,
} from '../../services/api/memorial';
import { updatePageSchema } from '../../validation/memorial';
import { Panel } from '../endingnote/layout';
import {
  checkRequest,
  pageKana,
  pageName,
  PlainList,
  problemsOf,
  SectionTitle,
  type Problems,
} from './parts';
import {
  ProfileForm,
  profileChanged,
  profileRequestOf,
  profileValuesOf,
  type ProfileValues,
} from './ProfileForm';

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
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<ProfileValues>(() => profileValuesOf(page));
  const [problems, setProblems] = useState<Problems>({});
  const isPet = page.type === 'pet';
  const dirty = editing && profileChanged(values, profileValuesOf(page));

  const save = useMutation({
    mutationFn: async () => {
      const request = profileRequestOf(values, isPet);
      checkRequest(updatePageSchema(), request);
      const photoName = values.photo ? await uploadImage(values.photo) : undefined;
      return updatePage(page.memorialPageId, {
        ...request,
        ...(photoName ? { photo_name: photoName } : {}),
      });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(memorialKeys.page(page.memorialPageId), saved);
      setValues(profileValuesOf(saved));
      setProblems({});
      setEditing(false);
    },
    onError: (error) => setProblems(problemsOf(error)),
  });

  const name = pageName(page);
  return (
    <Panel aria-labelledby="memory-profile-title">
      <Header>
        {page.photoThumbnailUrl && (
          <Portrait
            src={page.photoThumbnailUrl}
            alt={t('memory-photo-alt', { name })}
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
      {page.mode === 'admin_edit' &&
        (editing ? (
          <>
            <SectionTitle>{t('memory-profile-edit-title')}</SectionTitle>
            <ProfileForm
              idPrefix="memory-profile"
              isPet={isPet}
              values={values}
              onChange={setValues}
              problems={problems}
              busy={save.isPending}
              submitLabel={t('memory-save')}
              onSubmit={() => save.mutate()}
              onCancel={() => {
                setValues(profileValuesOf(page));
                setProblems({});
                setEditing(false);
              }}
            />
            <UnsavedChangesDialog when={dirty} />
          </>
        ) : (
          <p>
            <Button type="button" $variant="secondary" onClick={() => setEditing(true)}>
              {t('memory-profile-edit')}
            </Button>
          </p>
        ))}
    </Panel>
  );
}
