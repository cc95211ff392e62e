import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import type { ListPage } from '../../services/api/listPages';
import {
  fetchAdminLettersPage,
  fetchReceivedLettersPage,
  fetchUnsentLettersPage,
  timecapsuleKeys,
} from '../../services/api/timecapsule';
import { LoadMore } from '../../components/ui/LoadMore';
import { isHandledBySession } from '../../services/http';
import { Actions, Page, Panel } from '../../components/ui/pageLayout';
import { DeleteLetterButton } from './DeleteLetterButton';
import { editLetterPath } from './letterPaths';
import { LetterEnvelope, LetterSending } from './LetterEnvelope';
import { LetterList } from './letterList';
import { adminsOf, japanTime, namesText, personName } from './letterText';

type TimecapsuleListName = 'admin' | 'unsent' | 'received';
type ListStatus = 'loading' | 'loaded' | 'failed';

/**
 * One of the three lists, read on its own so that one failing list never hides the others,
 * a page at a time (the "more" button reads the next); letters already shown stay on screen
 * while their list is read again. No automatic retry: the region offers it.
 */
function useLetterList<T>(
  list: TimecapsuleListName,
  fetchPage: (cursor: string | null) => Promise<ListPage<T>>,
) {
  return useInfiniteQuery({
    queryKey: [...timecapsuleKeys.lists, list],
    queryFn: async ({ pageParam }) => {
      try {
        return await fetchPage(pageParam);
      } catch (error) {
        if (!isHandledBySession(error))
          console.error(`time capsule: the ${list} letters could not be loaded`, error);
        throw error;
      }
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    retry: false,
  });
}

/** The letters of the pages read so far. */
const lettersOf = <T,>(data: InfiniteData<ListPage<T>> | undefined): T[] =>
  data?.pages.flatMap((page) => page.items) ?? [];

/** Reading the next page is the button's to show; the region's state is the list's own. */
const statusOf = (query: {
  isFetching: boolean;
  isFetchingNextPage: boolean;
  isError: boolean;
  isFetchNextPageError: boolean;
}): ListStatus =>
  query.isFetching && !query.isFetchingNextPage
    ? 'loading'
    : query.isError && !query.isFetchNextPageError
      ? 'failed'
      : 'loaded';

/** One list's region: its heading, then loading, failure with retry, empty, or the letters. */
function ListRegion<T>({
  list,
  query,
  letter,
}: {
  list: TimecapsuleListName;
  query: ReturnType<typeof useLetterList<T>>;
  letter: (letter: T) => ReactNode;
}) {
  const t = useT();
  const headingId = `timecapsule-${list}-heading`;
  const status = statusOf(query);
  const letters = lettersOf(query.data);
  const count = letters.length;
  return (
    <Panel aria-labelledby={headingId} aria-busy={status === 'loading'}>
      <h2 id={headingId}>{t(`timecapsule-list-${list}`)}</h2>
      {status === 'failed' && (
        <div role="alert">
          <p>{t(`timecapsule-list-${list}-failed`)}</p>
          <Button type="button" $variant="secondary" onClick={() => void query.refetch()}>
            {t('timecapsule-retry')}
          </Button>
        </div>
      )}
      {status === 'loading' && count === 0 && <p>{t('timecapsule-loading')}</p>}
      {status === 'loaded' && count === 0 && <p>{t(`timecapsule-list-${list}-empty`)}</p>}
      {count > 0 && <LetterList>{letters.map(letter)}</LetterList>}
      {count > 0 && <LoadMore list={query} label={t(`timecapsule-list-${list}-more`)} />}
    </Panel>
  );
}

/**
 * /timecapsule/list: the letters I received, my unsent letters and those I administer, each
 * loading on its own, so that one failing list never hides the others.
 */
export function Component() {
  const t = useT();
  const lists = {
    admin: useLetterList('admin', fetchAdminLettersPage),
    unsent: useLetterList('unsent', fetchUnsentLettersPage),
    received: useLetterList('received', fetchReceivedLettersPage),
  };
  // Writing or deleting a letter changes every list it may be in.
  const reload = () => Object.values(lists).forEach((query) => void query.refetch());

  return (
    <Page>
      <h1>{t('timecapsule-list-title')}</h1>
      <Actions>
        <ButtonLink to="/timecapsule/new">{t('timecapsule-write')}</ButtonLink>
      </Actions>
      <ListRegion
        list="received"
        query={lists.received}
        letter={(letter) => (
          <LetterEnvelope
            key={letter.timeCapsuleLetterId}
            letter={letter}
            unopened={letter.openedAt === null}
          >
            <small>
              {t('timecapsule-from', {
                name: personName(t, {
                  lastName: letter.senderLastName,
                  firstName: letter.senderFirstName,
                }),
              })}
            </small>
            <small>{t('timecapsule-delivered-at', { date: japanTime(letter.deliveredAt) })}</small>
            {letter.late && <small>{t('timecapsule-late-short')}</small>}
          </LetterEnvelope>
        )}
      />
      <ListRegion
        list="unsent"
        query={lists.unsent}
        letter={(letter) => (
          <LetterEnvelope key={letter.timeCapsuleLetterId} letter={letter}>
            <LetterSending letter={letter} />
            <small>{t('timecapsule-updated-at', { date: japanTime(letter.updatedAt) })}</small>
            <Actions>
              <ButtonLink
                $variant="secondary"
                to={editLetterPath(letter.timeCapsuleLetterId)}
                aria-label={t('timecapsule-edit-named', { title: letter.title })}
              >
                {t('timecapsule-edit')}
              </ButtonLink>
              <DeleteLetterButton
                letterId={letter.timeCapsuleLetterId}
                title={letter.title}
                onDeleted={reload}
              />
            </Actions>
          </LetterEnvelope>
        )}
      />
      <ListRegion
        list="admin"
        query={lists.admin}
        letter={(letter) => (
          <LetterEnvelope key={letter.timeCapsuleLetterId} letter={letter}>
            <LetterSending letter={letter} />
            <small>{t('timecapsule-admins', { names: namesText(t, adminsOf(letter)) })}</small>
          </LetterEnvelope>
        )}
      />
    </Page>
  );
}
