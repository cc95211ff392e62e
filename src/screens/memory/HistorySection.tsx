import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { formatCalendarDate } from '../../components/ui/calendarDate';
import { useT } from '../../i18n/useT';
import type { HistoryEntry } from '../../services/api/memorial';
import { LoadMore } from '../../components/ui/LoadMore';
import { itemsOf, useHistoryPages } from './pageQuery';
import { ListSection } from './ListSection';

// Editing is offered to admins only: a visitor's page never loads its code.
const HistoryEditing = lazy(() =>
  import('./HistoryEditing').then((module) => ({ default: module.HistoryEditing })),
);

export const Timeline = styled.ol`
  margin: 0 0 16px;
  padding: 0 0 0 16px;
  list-style: none;
  border-left: 2px solid ${({ theme }) => theme.colours.border};
  > li {
    margin: 0 0 16px;
  }
  time {
    font-weight: bold;
  }
  p {
    margin: 4px 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;

const EntryPhoto = styled.img`
  display: block;
  max-width: 160px;
  width: 100%;
  border-radius: 8px;
`;

/** One entry as everyone sees it: its date, its text and its photo. */
export function EntryView({ entry }: { entry: HistoryEntry }) {
  const t = useT();
  const date = formatCalendarDate(entry.occurredOn);
  return (
    <>
      <time dateTime={entry.occurredOn}>{date}</time>
      <p>{entry.body}</p>
      {entry.thumbnailUrl && (
        // The history sits below the album: its photos wait until the reader scrolls near.
        <EntryPhoto
          src={entry.thumbnailUrl}
          alt={t('memory-history-photo-alt', { date })}
          loading="lazy"
        />
      )}
    </>
  );
}

/**
 * The history: dated entries, oldest first, a page at a time with the "more" button; admins
 * add, edit and delete among those shown.
 */
export function HistorySection({
  memorialPageId,
  canEdit,
}: {
  memorialPageId: string;
  canEdit: boolean;
}) {
  const t = useT();
  const histories = useHistoryPages(memorialPageId);
  const entries = itemsOf(histories.data);
  const more = <LoadMore list={histories} label={t('memory-history-more')} />;
  const viewing = entries.length > 0 && (
    <Timeline>
      {entries.map((entry) => (
        <li key={entry.id}>
          <EntryView entry={entry} />
        </li>
      ))}
    </Timeline>
  );
  return (
    <ListSection
      id="history"
      list={{ isError: histories.isError, isSuccess: histories.isSuccess, data: entries }}
      canEdit={canEdit}
    >
      {canEdit ? (
        <Suspense fallback={viewing}>
          <HistoryEditing memorialPageId={memorialPageId} entries={entries} more={more} />
        </Suspense>
      ) : (
        <>
          {viewing}
          {more}
        </>
      )}
    </ListSection>
  );
}
