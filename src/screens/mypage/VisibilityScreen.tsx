import { PageFailed, PageLoading } from '../../components/ui/PageLoading';
import { useQuery } from '@tanstack/react-query';
import styled from 'styled-components';
import { Link } from 'react-router';
import { useT } from '../../i18n/useT';
import { Page, Panel } from '../../components/ui/pageLayout';
import {
  fetchVisibilityOverview,
  visibilityKeys,
  type VisibilityOverview,
} from '../../services/api/visibility';
import { useSession } from '../../services/session/useSession';
import { ItemList, Muted } from '../dashboard/homeParts';
import { memoryPath, pageName } from '../memory/memorialPageNames';
import { adminsOf, deliveryText, japanTime, honouredNamesText } from '../timecapsule/letterText';
import { editLetterPath, letterPath } from '../timecapsule/letterPaths';

type Translate = ReturnType<typeof useT>;
type Overview = VisibilityOverview;

const Item = styled.li`
  padding: 12px 0;
  border-top: 1px solid ${({ theme }) => theme.colours.border};
`;

const Who = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 4px 12px;
  margin: 8px 0;
  dt {
    font-weight: bold;
  }
  dd {
    margin: 0;
  }
`;

/** Now and after the member's death, side by side: the one question this page answers. */
function NowAndAfter({ now, after }: { now: string; after: string }) {
  const t = useT();
  return (
    <Who>
      <dt>{t('visibility-now')}</dt>
      <dd>{now}</dd>
      <dt>{t('visibility-after-death')}</dt>
      <dd>{after}</dd>
    </Who>
  );
}

function Pages({ pages }: { pages: Overview['pages'] }) {
  const t = useT();
  if (pages.length === 0) return <p>{t('visibility-pages-empty')}</p>;
  return (
    <ItemList>
      {pages.map((page) => {
        const who = t(`memory-privacy-${page.privacy}`);
        return (
          <Item key={page.memorialPageId}>
            <h3>
              {page.own ? t('visibility-page-own', { name: pageName(page) }) : pageName(page)}
            </h3>
            <NowAndAfter
              now={who}
              after={
                page.own ? t('visibility-page-after-death-own', { who }) : t('visibility-unchanged')
              }
            />
            <Link to={memoryPath(page.memorialPageId)}>
              {t('visibility-change-page', { name: pageName(page) })}
            </Link>
          </Item>
        );
      })}
    </ItemList>
  );
}

function EndingNote({ note, userId }: { note: Overview['endingNote']; userId: string }) {
  const t = useT();
  const readers = note.readers.filter((reader) => reader.connected);
  const disconnected = note.readers.filter((reader) => !reader.connected);
  const onlyMe = t('visibility-only-me');
  const readersText = readers.length ? honouredNamesText(t, readers) : onlyMe;
  const opensTo = (opens: boolean) => (opens ? readersText : onlyMe);
  return (
    <>
      <p>
        {readers.length
          ? t('visibility-note-readers', { names: honouredNamesText(t, readers) })
          : t('visibility-note-no-readers')}
      </p>
      {disconnected.length > 0 && (
        <p>
          <Muted>
            {t('visibility-note-disconnected', { names: honouredNamesText(t, disconnected) })}
          </Muted>
        </p>
      )}
      <ItemList>
        {note.sections.map(({ section, visibility }) => (
          <Item key={section}>
            <h3>{t(`endingnote-${section}`)}</h3>
            <NowAndAfter
              now={opensTo(visibility === 'readers_now')}
              after={opensTo(visibility !== 'private')}
            />
            <Link to={`/endingnote/${encodeURIComponent(userId)}?section=${section}`}>
              {t('visibility-change-section', { section: t(`endingnote-${section}`) })}
            </Link>
          </Item>
        ))}
      </ItemList>
    </>
  );
}

/** Who reads a letter before and after it goes: the writer, its admins, its recipients. */
function letterReaders(t: Translate, letter: Overview['letters'][number]) {
  const receivers = honouredNamesText(t, letter.receivers);
  const admins = adminsOf(letter);
  const delivered = admins.length
    ? t('visibility-letter-readers-with-admins', {
        receivers,
        admins: honouredNamesText(t, admins),
      })
    : t('visibility-letter-readers', { receivers });
  if (letter.deliveredAt) return { now: delivered, after: t('visibility-unchanged') };
  const before = admins.length
    ? t('visibility-letter-unsent-with-admins', { admins: honouredNamesText(t, admins) })
    : t('visibility-only-me');
  return { now: before, after: letter.event ? delivered : t('visibility-unchanged') };
}

function Letters({ letters }: { letters: Overview['letters'] }) {
  const t = useT();
  if (letters.length === 0) return <p>{t('visibility-letters-empty')}</p>;
  return (
    <ItemList>
      {letters.map((letter) => (
        <Item key={letter.timeCapsuleLetterId}>
          <h3>{t('visibility-letter-title', { title: letter.title })}</h3>
          <p>
            {letter.deliveredAt
              ? t('visibility-letter-delivered', { at: japanTime(letter.deliveredAt) })
              : deliveryText(t, letter)}
          </p>
          <NowAndAfter {...letterReaders(t, letter)} />
          {letter.deliveredAt ? (
            <Link to={letterPath(letter.timeCapsuleLetterId)}>
              {t('visibility-open-letter', { title: letter.title })}
            </Link>
          ) : (
            <Link to={editLetterPath(letter.timeCapsuleLetterId)}>
              {t('visibility-change-letter', { title: letter.title })}
            </Link>
          )}
        </Item>
      ))}
    </ItemList>
  );
}

/** /mypage/visibility: who can see each of the member's things, now and after their death. */
export function Component() {
  const t = useT();
  const { user } = useSession();
  const overview = useQuery({
    queryKey: visibilityKeys.overview,
    queryFn: fetchVisibilityOverview,
  });
  if (overview.isPending || !user) {
    return <PageLoading title={t('visibility-title')} />;
  }
  if (overview.isError) {
    return <PageFailed title={t('visibility-title')} message={t('visibility-load-error')} />;
  }
  const { data } = overview;
  return (
    <Page>
      <h1>{t('visibility-title')}</h1>
      <p>{t('visibility-explained')}</p>
      <Panel aria-labelledby="visibility-search">
        <h2 id="visibility-search">{t('visibility-search-heading')}</h2>
        <p>{t(data.searchable ? 'visibility-search-on' : 'visibility-search-off')}</p>
        <Link to="/mypage">{t('visibility-change-search')}</Link>
      </Panel>
      <Panel aria-labelledby="visibility-pages">
        <h2 id="visibility-pages">{t('visibility-pages-heading')}</h2>
        <Pages pages={data.pages} />
      </Panel>
      <Panel aria-labelledby="visibility-note">
        <h2 id="visibility-note">{t('visibility-note-heading')}</h2>
        <EndingNote note={data.endingNote} userId={user.id} />
      </Panel>
      <Panel aria-labelledby="visibility-letters">
        <h2 id="visibility-letters">{t('visibility-letters-heading')}</h2>
        <Letters letters={data.letters} />
      </Panel>
    </Page>
  );
}
