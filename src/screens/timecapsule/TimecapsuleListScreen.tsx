import { useMachine } from '@xstate/react';
import type { ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { Button, ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { timecapsuleListsMachine, type TimecapsuleListName } from '../../machines/timecapsuleLists';
import {
  fetchAdminLetters,
  fetchReceivedLetters,
  fetchUnsentLetters,
} from '../../services/api/timecapsule';
import { isHandledBySession } from '../../services/http';
import { Actions, Page, Panel } from '../../components/ui/pageLayout';
import { DeleteLetterButton } from './DeleteLetterButton';
import { editLetterPath, letterPath } from './letterPaths';
import { LetterItem, LetterLink, LetterList } from './letterList';
import { adminsOf, deliveryText, japanTime, namesText, personName } from './letterText';

const listsMachine = timecapsuleListsMachine.provide({
  actors: {
    loadAdminLetters: fromPromise(fetchAdminLetters),
    loadUnsentLetters: fromPromise(fetchUnsentLetters),
    loadReceivedLetters: fromPromise(fetchReceivedLetters),
  },
  actions: {
    reportLoadFailure: (_, { list, error }) => {
      if (!isHandledBySession(error))
        console.error(`time capsule: the ${list} letters could not be loaded`, error);
    },
  },
});

/** One list's region: its heading, then loading, failure with retry, empty, or the letters. */
function ListRegion({
  list,
  status,
  count,
  onRetry,
  children,
}: {
  list: TimecapsuleListName;
  status: 'loading' | 'loaded' | 'failed';
  count: number;
  onRetry: () => void;
  children: ReactNode;
}) {
  const t = useT();
  const headingId = `timecapsule-${list}-heading`;
  return (
    <Panel aria-labelledby={headingId} aria-busy={status === 'loading'}>
      <h2 id={headingId}>{t(`timecapsule-list-${list}`)}</h2>
      {status === 'failed' && (
        <div role="alert">
          <p>{t(`timecapsule-list-${list}-failed`)}</p>
          <Button type="button" $variant="secondary" onClick={onRetry}>
            {t('timecapsule-retry')}
          </Button>
        </div>
      )}
      {status === 'loading' && count === 0 && <p>{t('timecapsule-loading')}</p>}
      {status === 'loaded' && count === 0 && <p>{t(`timecapsule-list-${list}-empty`)}</p>}
      {count > 0 && <LetterList>{children}</LetterList>}
    </Panel>
  );
}

/**
 * /timecapsule/list: the letters I received, my unsent letters and those I administer, each
 * loading on its own (timecapsuleLists), so that one failing list never hides the others.
 */
export function Component() {
  const t = useT();
  const [snapshot, send] = useMachine(listsMachine);
  const { admin, unsent, received } = snapshot.context;
  const statusOf = (list: TimecapsuleListName) =>
    (snapshot.value as Record<TimecapsuleListName, 'loading' | 'loaded' | 'failed'>)[list];
  const retry = (list: TimecapsuleListName) => () => send({ type: 'RETRY', list });
  const reload = () => send({ type: 'RELOAD' });

  return (
    <Page>
      <h1>{t('timecapsule-list-title')}</h1>
      <Actions>
        <ButtonLink to="/timecapsule/new">{t('timecapsule-write')}</ButtonLink>
      </Actions>
      <ListRegion
        list="received"
        status={statusOf('received')}
        count={received.letters.length}
        onRetry={retry('received')}
      >
        {received.letters.map((letter) => (
          <LetterItem key={letter.timeCapsuleLetterId}>
            <LetterLink to={letterPath(letter.timeCapsuleLetterId)}>
              {letter.openedAt === null && `${t('timecapsule-unopened')} `}
              {letter.title}
            </LetterLink>
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
          </LetterItem>
        ))}
      </ListRegion>
      <ListRegion
        list="unsent"
        status={statusOf('unsent')}
        count={unsent.letters.length}
        onRetry={retry('unsent')}
      >
        {unsent.letters.map((letter) => (
          <LetterItem key={letter.timeCapsuleLetterId}>
            <LetterLink to={letterPath(letter.timeCapsuleLetterId)}>{letter.title}</LetterLink>
            <small>{t('timecapsule-to', { names: namesText(t, letter.receivers) })}</small>
            <small>{deliveryText(t, letter)}</small>
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
          </LetterItem>
        ))}
      </ListRegion>
      <ListRegion
        list="admin"
        status={statusOf('admin')}
        count={admin.letters.length}
        onRetry={retry('admin')}
      >
        {admin.letters.map((letter) => (
          <LetterItem key={letter.timeCapsuleLetterId}>
            <LetterLink to={letterPath(letter.timeCapsuleLetterId)}>{letter.title}</LetterLink>
            <small>{t('timecapsule-to', { names: namesText(t, letter.receivers) })}</small>
            <small>{deliveryText(t, letter)}</small>
            <small>{t('timecapsule-admins', { names: namesText(t, adminsOf(letter)) })}</small>
          </LetterItem>
        ))}
      </ListRegion>
    </Page>
  );
}
