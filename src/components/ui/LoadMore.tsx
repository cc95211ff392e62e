import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { Button } from './Button';

/** What the button needs of a paged list (TanStack Query's infinite query). */
export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
}

const More = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 8px;
  margin: 0 0 16px;
  p {
    margin: 0;
  }
`;

/**
 * The "more" button (list-more) under a long list while it has more: the next page is added
 * below what is shown. `label` names the list for a screen reader (it contains the visible words).
 */
export function LoadMore({ list, label }: { list: PagedList; label: string }) {
  const t = useT();
  if (!list.hasNextPage) return null;
  return (
    <More>
      {list.isFetchNextPageError && <p role="alert">{t('list-more-failed')}</p>}
      <Button
        type="button"
        $variant="secondary"
        aria-label={label}
        aria-busy={list.isFetchingNextPage}
        disabled={list.isFetchingNextPage}
        onClick={() => void list.fetchNextPage()}
      >
        {t('list-more')}
      </Button>
    </More>
  );
}
