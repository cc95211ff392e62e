import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import styled from 'styled-components';
import { Button } from '../../components/ui/Button';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import {
  searchUsers,
  sendConnectionRequest,
  socialKeys,
  type SearchResult,
} from '../../services/api/social';
import { SEARCH_QUERY_MAX_LENGTH, type RelationshipValue } from '../../../contract/rules/social';
import { fullName, MemberList, MemberRow } from '../connection/MemberRow';
import { RelationshipSelect } from '../connection/RelationshipSelect';
import { Page, Panel } from '../../components/ui/pageLayout';

const SearchForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  label {
    flex: 1 0 100%;
    font-weight: bold;
  }
  input {
    flex: 1 1 200px;
    min-height: 44px;
    padding: 0 12px;
    border-radius: 8px;
    border: 1px solid ${({ theme }) => theme.colours.border};
    background: ${({ theme }) => theme.colours.surface};
    color: ${({ theme }) => theme.colours.text};
  }
  p {
    flex: 1 0 100%;
    margin: 0;
    color: ${({ theme }) => theme.colours.textMuted};
  }
`;

function ResultRow({ result }: { result: SearchResult }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [relationship, setRelationship] = useState<RelationshipValue>('friend');
  const send = useMutation({
    mutationFn: () => sendConnectionRequest(result.userId, relationship),
    onSuccess: (outcome) =>
      void showToast(
        t(outcome.status === 'connected' ? 'user-search-connected-now' : 'user-search-requested'),
        'success',
      ),
    onError: () => void showToast(t('connection-action-error'), 'error'),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['user-search'] }),
        queryClient.invalidateQueries({ queryKey: socialKeys.requests }),
        queryClient.invalidateQueries({ queryKey: socialKeys.connections }),
      ]),
  });
  const name = fullName(result);
  return (
    <MemberRow member={result}>
      {result.connection === 'none' ? (
        <>
          <RelationshipSelect
            label={t('user-search-relationship-label', { name })}
            value={relationship}
            onChange={setRelationship}
            disabled={send.isPending}
          />
          <Button disabled={send.isPending} onClick={() => send.mutate()}>
            {t('user-search-send')}
          </Button>
        </>
      ) : (
        <small>{t(`user-search-state-${result.connection}`)}</small>
      )}
    </MemberRow>
  );
}

/** /user-search: members by name in kanji or kana, whole or partial (docs/social.md). */
export function Component() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const [text, setText] = useState(query);
  const results = useInfiniteQuery({
    queryKey: socialKeys.search(query),
    enabled: query.trim() !== '',
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => searchUsers(query, pageParam),
    getNextPageParam: (last) => last.nextCursor,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) setParams({ q: text.trim() });
  };
  const found = results.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Page>
      <h1>{t('user-search-title')}</h1>
      <Panel>
        <SearchForm role="search" onSubmit={submit}>
          <label htmlFor="user-search-q">{t('user-search-label')}</label>
          <input
            id="user-search-q"
            type="search"
            value={text}
            maxLength={SEARCH_QUERY_MAX_LENGTH}
            aria-describedby="user-search-hint"
            onChange={(event) => setText(event.target.value)}
          />
          <Button type="submit">{t('user-search-submit')}</Button>
          <p id="user-search-hint">{t('user-search-hint')}</p>
        </SearchForm>
      </Panel>
      {query && (
        <Panel aria-live="polite" aria-busy={results.isFetching}>
          {results.isError && <p role="alert">{t('connection-load-error')}</p>}
          {results.isSuccess && found.length === 0 && <p>{t('user-search-empty')}</p>}
          <MemberList>
            {found.map((result) => (
              <ResultRow key={result.userId} result={result} />
            ))}
          </MemberList>
          {results.hasNextPage && (
            <Button
              $variant="secondary"
              disabled={results.isFetchingNextPage}
              onClick={() => void results.fetchNextPage()}
            >
              {t('user-search-more')}
            </Button>
          )}
        </Panel>
      )}
    </Page>
  );
}
