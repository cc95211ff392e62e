import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import styled from 'styled-components';
import { UnsavedChangesDialog } from '../../components/form/UnsavedChangesDialog';
import { formatTokyoDateTime } from '../../components/ui/elapsedTime';
import { formatCount } from '../../i18n/formatCount';
import { useT } from '../../i18n/useT';
import { whenSessionConnected } from '../../services/http/connection';
import { isHttpError } from '../../services/http/lazy';
import { queryClient } from '../../services/queries/queryClient';
import { useSession } from '../../services/session/useSession';
import {
  fetchConnectionChoices,
  fetchNote,
  type NoteView,
  type SectionView,
} from '../../services/api/endingnote';
import { Page, Panel } from '../../components/ui/pageLayout';
import { NoteTools, readersQuery } from './NoteTools';
import { SectionForm } from './SectionForm';
import { SectionReadOnly } from './SectionReadOnly';
import { VisibilitySelect } from './VisibilitySelect';

const SectionList = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

const SectionLink = styled(Link)`
  display: inline-flex;
  flex-direction: column;
  min-height: 44px;
  padding: 6px 14px;
  border-radius: 12px;
  border: 1px solid ${({ theme }) => theme.colours.border};
  background: ${({ theme }) => theme.colours.surface};
  color: ${({ theme }) => theme.colours.text};
  text-decoration: none;
  &[aria-current='page'] {
    border: 2px solid ${({ theme }) => theme.colours.primary};
    font-weight: bold;
  }
  small {
    color: ${({ theme }) => theme.colours.textMuted};
  }
`;

const Meta = styled.p`
  margin: 0 0 16px;
  color: ${({ theme }) => theme.colours.textMuted};
  progress {
    display: block;
    width: 100%;
    margin-top: 4px;
  }
`;

const noteQueryKey = (userId: string) => ['endingnote', userId] as const;
const noteQuery = (userId: string) => ({
  queryKey: noteQueryKey(userId),
  queryFn: () => fetchNote(userId),
});
const connectionsQueryKey = ['endingnote', 'connections'] as const;

/**
 * Runs as soon as this chunk is in, before the screen's first render: the note read goes out
 * now (once the session's token is there), not after the frame and the screen have rendered.
 * A note already read is not read again here; the screen's query refreshes it as before.
 */
export function loader({ params }: LoaderFunctionArgs) {
  const { userId } = params;
  if (!userId) return null;
  // The router starts before the app's first render has connected the session.
  void whenSessionConnected()
    .then(() => queryClient.ensureQueryData(noteQuery(userId)))
    .catch(() => undefined);
  return null;
}

/** A section's counts as the messages' arguments (as text: see formatCount). */
function counts({ completion }: SectionView) {
  return { filled: formatCount(completion.filled), total: formatCount(completion.total) };
}

function Completion({ section }: { section: SectionView }) {
  const t = useT();
  const { filled, total } = section.completion;
  const label = t('endingnote-completion-label', counts(section));
  return (
    <Meta>
      {label}
      {' / '}
      {section.updatedAt
        ? t('endingnote-updated-at', { date: formatTokyoDateTime(new Date(section.updatedAt)) })
        : t('endingnote-never-saved')}
      <progress value={filled} max={total} aria-label={label} />
    </Meta>
  );
}

/** /endingnote/{userId}: the owner writes their note; a designated reader reads what is open. */
export function Component() {
  const t = useT();
  const userId = useParams().userId!;
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const { user: sessionUser } = useSession();
  const [dirtySection, setDirtySection] = useState<string | null>(null);
  // Moving to another section (after the guard let it go) leaves nothing unsaved behind.
  const [shownParam, setShownParam] = useState(params.get('section'));
  if (shownParam !== params.get('section')) {
    setShownParam(params.get('section'));
    setDirtySection(null);
  }
  const note = useQuery(noteQuery(userId));
  const isOwner = note.data?.viewer === 'owner';
  // The signed-in member opening their own note is its owner: the owner's reads go out beside
  // the note read instead of one round trip after it (time to interactive).
  const ownNote = isOwner || sessionUser?.id === userId;
  const connections = useQuery({
    queryKey: connectionsQueryKey,
    queryFn: fetchConnectionChoices,
    enabled: ownNote,
  });
  // Only started here: NoteTools shows the readers, so this screen need not render on them.
  useQuery({ ...readersQuery(userId), enabled: ownNote, notifyOnChangeProps: [] });
  // The owner's tools (readers, export) sit below the open section: they come in a second,
  // time-sliced pass (a transition), so the commit that first draws the note is smaller, and
  // with it the longest task of the page's start.
  const showTools = useDeferredValue(true, false);
  const choices = useMemo(
    () =>
      (connections.data ?? []).map((member) => ({
        value: member.userId,
        label: t('endingnote-member-name', { ...member }),
      })),
    [connections.data, t],
  );

  if (note.isPending) {
    return (
      <Page aria-busy="true">
        <h1>{t('endingnote-title')}</h1>
        <p>{t('endingnote-loading')}</p>
      </Page>
    );
  }
  if (note.isError) {
    const notFound = isHttpError(note.error) && note.error.response?.status === 404;
    return (
      <Page>
        <h1>{t('endingnote-title')}</h1>
        <p role="alert">{t(notFound ? 'endingnote-not-found' : 'endingnote-load-failed')}</p>
      </Page>
    );
  }

  const { sections, owner, members } = note.data;
  const active =
    sections.find((section) => section.section === params.get('section')) ?? sections[0]!;
  const ownerName = t('endingnote-member-name', { ...owner });
  const replaceSection = (view: SectionView) =>
    queryClient.setQueryData<NoteView>(
      noteQueryKey(userId),
      (current) =>
        current && {
          ...current,
          sections: current.sections.map((section) =>
            section.section === view.section ? view : section,
          ),
        },
    );
  const reload = async () => {
    try {
      const fresh = await queryClient.fetchQuery({
        queryKey: noteQueryKey(userId),
        queryFn: () => fetchNote(userId),
        staleTime: 0,
      });
      return fresh.sections.find((section) => section.section === active.section);
    } catch {
      return undefined;
    }
  };

  return (
    <Page>
      <h1>{isOwner ? t('endingnote-title') : t('endingnote-of', { name: ownerName })}</h1>
      <p>{isOwner ? t('endingnote-lead') : t('endingnote-reader-lead', { name: ownerName })}</p>
      <nav aria-label={t('endingnote-sections')}>
        <SectionList>
          {sections.map((section) => (
            <li key={section.section}>
              <SectionLink
                to={`?section=${section.section}`}
                aria-current={section === active ? 'page' : undefined}
              >
                {t(`endingnote-${section.section}`)}
                <small>{t('endingnote-completion', counts(section))}</small>
              </SectionLink>
            </li>
          ))}
        </SectionList>
      </nav>
      <Panel aria-labelledby="endingnote-section-title">
        <h2 id="endingnote-section-title">{t(`endingnote-${active.section}`)}</h2>
        <Completion section={active} />
        {isOwner ? (
          <>
            <VisibilitySelect userId={userId} view={active} onChanged={replaceSection} />
            <SectionForm
              key={active.section}
              userId={userId}
              view={active}
              connections={choices}
              onSaved={replaceSection}
              reload={reload}
              onDirtyChange={(dirty) => setDirtySection(dirty ? active.section : null)}
            />
          </>
        ) : (
          <SectionReadOnly view={active} members={members} />
        )}
      </Panel>
      {isOwner && showTools && <NoteTools userId={userId} connections={choices} />}
      <UnsavedChangesDialog when={dirtySection === active.section} />
    </Page>
  );
}
