import { useQuery } from '@tanstack/react-query';
import axios from 'axios';
import { Link, useNavigate, useParams } from 'react-router';
import styled from 'styled-components';
import { ButtonLink } from '../../components/ui/Button';
import { useT } from '../../i18n/useT';
import { fetchLetter, timecapsuleKeys } from '../../services/api/timecapsule';
import type {
  AdminView,
  LetterPhoto,
  RecipientView,
  WriterView,
} from '../../../contract/timecapsule';
import { Actions, Page, Panel } from '../../components/ui/pageLayout';
import { DeleteLetterButton } from './DeleteLetterButton';
import { editLetterPath } from './letterPaths';
import { Notice } from '../../components/ui/Notice';
import { LetterItem, LetterList } from './letterList';
import {
  adminsOf,
  deliveryText,
  japanDate,
  japanTime,
  memorialServiceOf,
  namesText,
  personName,
} from './letterText';

const Body = styled.div`
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  line-height: 1.8;
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 4px 12px;
  margin: 0 0 16px;
  dt {
    color: ${({ theme }) => theme.colours.textMuted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const PhotoList = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin: 16px 0 0;
  padding: 0;
  list-style: none;
  img {
    display: block;
    max-width: 100%;
    max-height: 320px;
    border-radius: 8px;
  }
`;

type Translate = ReturnType<typeof useT>;

function PhotosOf({ photos }: { photos: LetterPhoto[] }) {
  const t = useT();
  if (photos.length === 0) return null;
  return (
    <PhotoList>
      {photos.map((photo, index) => (
        <li key={photo.name}>
          <img src={photo.url} alt={t('timecapsule-photo', { number: index + 1 })} />
        </li>
      ))}
    </PhotoList>
  );
}

/** The writer's delivery rule in words, with its time once it is known. */
function ruleText(t: Translate, letter: WriterView): string {
  switch (letter.rule) {
    case 'date':
      return deliveryText(t, letter);
    case 'death':
      return letter.delayDays
        ? t('timecapsule-rule-death-after', { days: letter.delayDays })
        : t('timecapsule-rule-death-at-once');
    case 'death_anniversary': {
      const years = letter.anniversaryYears ?? 0;
      const service = memorialServiceOf(t, years);
      return service
        ? t('timecapsule-rule-anniversary-service', { years, service })
        : t('timecapsule-rule-anniversary', { years });
    }
    case 'date_after_death':
      return t('timecapsule-rule-date-after-death', {
        date: japanDate(letter.afterDeathDate ?? ''),
      });
  }
}

function WriterLetter({ letter }: { letter: WriterView }) {
  const t = useT();
  const navigate = useNavigate();
  const unsent = letter.deliveredAt === null;
  const admins = adminsOf(letter);
  return (
    <>
      <Panel aria-labelledby="letter-envelope">
        <h2 id="letter-envelope">{t('timecapsule-envelope')}</h2>
        <Facts>
          <dt>{t('timecapsule-fact-delivery')}</dt>
          <dd>{ruleText(t, letter)}</dd>
          {letter.rule !== 'date' && letter.sendDate && (
            <>
              <dt>{t('timecapsule-fact-due')}</dt>
              <dd>{japanTime(letter.sendDate)}</dd>
            </>
          )}
          <dt>{t('timecapsule-fact-admins')}</dt>
          <dd>{admins.length > 0 ? namesText(t, admins) : t('timecapsule-no-admins')}</dd>
          <dt>{t('timecapsule-fact-updated')}</dt>
          <dd>{japanTime(letter.updatedAt)}</dd>
        </Facts>
        {unsent ? (
          <Actions>
            <ButtonLink to={editLetterPath(letter.timeCapsuleLetterId)}>
              {t('timecapsule-edit')}
            </ButtonLink>
            <DeleteLetterButton
              letterId={letter.timeCapsuleLetterId}
              title={letter.title}
              onDeleted={() => void navigate('/timecapsule/list', { replace: true })}
            />
          </Actions>
        ) : (
          <p>{t('timecapsule-delivered-fixed')}</p>
        )}
      </Panel>
      <Panel aria-labelledby="letter-recipients">
        <h2 id="letter-recipients">{t('timecapsule-recipients')}</h2>
        <LetterList>
          {letter.recipients.map((recipient, index) => (
            <LetterItem key={`${recipient.userId ?? recipient.email}-${index}`}>
              <strong>
                {personName(t, recipient)}
                {recipient.kind === 'guest' &&
                  ` ${t('timecapsule-guest-address', { email: recipient.email ?? '' })}`}
              </strong>
              <small>
                {recipient.deliveredAt
                  ? t('timecapsule-delivered-at', { date: japanTime(recipient.deliveredAt) })
                  : t('timecapsule-not-delivered')}
              </small>
              {recipient.deliveredAt && (
                <small>
                  {recipient.openedAt
                    ? t('timecapsule-opened-at', { date: japanTime(recipient.openedAt) })
                    : t('timecapsule-not-opened')}
                </small>
              )}
              {recipient.late && <small>{t('timecapsule-late-short')}</small>}
            </LetterItem>
          ))}
        </LetterList>
      </Panel>
      <Panel aria-labelledby="letter-body">
        <h2 id="letter-body">{t('timecapsule-body')}</h2>
        <Body>{letter.body}</Body>
        <PhotosOf photos={letter.photos} />
      </Panel>
    </>
  );
}

function ReceivedLetterView({ letter }: { letter: RecipientView }) {
  const t = useT();
  const sender = personName(t, {
    lastName: letter.senderLastName,
    firstName: letter.senderFirstName,
  });
  return (
    <Panel aria-labelledby="letter-body">
      <h2 id="letter-body">{t('timecapsule-from', { name: sender })}</h2>
      <Facts>
        <dt>{t('timecapsule-fact-delivered')}</dt>
        <dd>{japanTime(letter.deliveredAt)}</dd>
        <dt>{t('timecapsule-fact-written')}</dt>
        <dd>{japanTime(letter.createdAt)}</dd>
      </Facts>
      {letter.late && (
        <Notice $tone="attention">
          {t('timecapsule-late', { date: japanTime(letter.dueAt) })}
        </Notice>
      )}
      <Body>{letter.body}</Body>
      <PhotosOf photos={letter.photos} />
    </Panel>
  );
}

function AdminLetterView({ letter }: { letter: AdminView }) {
  const t = useT();
  return (
    <>
      <Panel aria-labelledby="letter-envelope">
        <h2 id="letter-envelope">{t('timecapsule-envelope')}</h2>
        <p>{t('timecapsule-admin-lead')}</p>
        <Facts>
          <dt>{t('timecapsule-fact-to')}</dt>
          <dd>{namesText(t, letter.receivers)}</dd>
          <dt>{t('timecapsule-fact-delivery')}</dt>
          <dd>
            {letter.deliveredAt
              ? t('timecapsule-delivered-at', { date: japanTime(letter.deliveredAt) })
              : deliveryText(t, letter)}
          </dd>
          <dt>{t('timecapsule-fact-admins')}</dt>
          <dd>{namesText(t, adminsOf(letter))}</dd>
        </Facts>
      </Panel>
      <Panel aria-labelledby="letter-body">
        <h2 id="letter-body">{t('timecapsule-body')}</h2>
        {letter.body === null ? (
          <p>{t('timecapsule-admin-body-later')}</p>
        ) : (
          <>
            <Body>{letter.body}</Body>
            <PhotosOf photos={letter.photos} />
          </>
        )}
      </Panel>
    </>
  );
}

/**
 * /timecapsule/letters/{letterId}: the letter as the caller may see it — the writer (with
 * each recipient's delivery and opening), a recipient (reading it marks it opened) or an
 * admin (the envelope; the body once delivered). Anyone else: not found.
 */
export function Component() {
  const t = useT();
  const letterId = useParams().letterId!;
  const letter = useQuery({
    queryKey: timecapsuleKeys.letter(letterId),
    queryFn: () => fetchLetter(letterId),
    // Photos come with signed URLs that expire; the letter is read afresh on every visit.
    staleTime: 0,
    gcTime: 0,
    retry: (count, error) =>
      !(axios.isAxiosError(error) && error.response?.status === 404) && count < 2,
  });

  if (letter.isPending) {
    return (
      <Page aria-busy="true">
        <h1>{t('timecapsule-letter-title')}</h1>
        <p>{t('timecapsule-loading')}</p>
      </Page>
    );
  }
  if (letter.isError) {
    const notFound = axios.isAxiosError(letter.error) && letter.error.response?.status === 404;
    return (
      <Page>
        <h1>{t('timecapsule-letter-title')}</h1>
        <p role="alert">{t(notFound ? 'timecapsule-not-found' : 'timecapsule-load-failed')}</p>
        <Link to="/timecapsule/list">{t('timecapsule-to-list')}</Link>
      </Page>
    );
  }
  const view = letter.data;
  return (
    <Page>
      <h1>{view.title}</h1>
      {view.role === 'writer' && <WriterLetter letter={view} />}
      {view.role === 'recipient' && <ReceivedLetterView letter={view} />}
      {view.role === 'admin' && <AdminLetterView letter={view} />}
      <p>
        <Link to="/timecapsule/list">{t('timecapsule-to-list')}</Link>
      </p>
    </Page>
  );
}
