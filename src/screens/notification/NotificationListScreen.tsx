import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import styled from 'styled-components';
import { ElapsedTime } from '../../components/ui/ElapsedTime';
import { Button } from '../../components/ui/Button';
import { showToast } from '../../components/ui/toast';
import { useT } from '../../i18n/useT';
import {
  fetchNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  socialKeys,
} from '../../services/api/social';
import { Page, Panel } from '../../components/ui/pageLayout';
import { targetOf, textOf } from './notificationText';

const Item = styled.li<{ $unread: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 4px;
  padding: 12px;
  border-radius: 8px;
  border-left: 4px solid
    ${({ theme, $unread }) => ($unread ? theme.colours.primary : 'transparent')};
  a {
    color: ${({ theme }) => theme.colours.text};
    font-weight: ${({ $unread }) => ($unread ? 'bold' : 'normal')};
  }
  small {
    color: ${({ theme }) => theme.colours.textMuted};
  }
`;

const List = styled.ul`
  display: flex;
  flex-direction: column;
  gap: 4px;
  margin: 0 0 16px;
  padding: 0;
  list-style: none;
`;

/** /notification/list: newest first; opening one marks it read, or all at once. */
export function Component() {
  const t = useT();
  const queryClient = useQueryClient();
  const now = new Date();
  const list = useInfiniteQuery({
    queryKey: socialKeys.notifications,
    initialPageParam: 1,
    queryFn: ({ pageParam }) => fetchNotifications(pageParam),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: socialKeys.notifications }),
      queryClient.invalidateQueries({ queryKey: socialKeys.unreadCount }),
    ]);
  const markOne = useMutation({ mutationFn: markNotificationRead, onSettled: refresh });
  const markAll = useMutation({
    mutationFn: markAllNotificationsRead,
    onError: () => void showToast(t('connection-action-error'), 'error'),
    onSettled: refresh,
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const anyUnread = items.some((item) => !item.readAt);
  return (
    <Page>
      <h1>{t('notification-title')}</h1>
      <Panel>
        {list.isError && <p role="alert">{t('connection-load-error')}</p>}
        {list.isSuccess && items.length === 0 && <p>{t('notification-empty')}</p>}
        {anyUnread && (
          <p>
            <Button
              $variant="secondary"
              disabled={markAll.isPending}
              onClick={() => markAll.mutate()}
            >
              {t('notification-mark-all')}
            </Button>
          </p>
        )}
        <List>
          {items.map((item) => (
            <Item key={item.id} $unread={!item.readAt}>
              <Link
                to={targetOf(item)}
                onClick={() => {
                  if (!item.readAt) markOne.mutate(item.id);
                }}
              >
                {!item.readAt && <span>{`${t('notification-unread')} `}</span>}
                {textOf(t, item)}
              </Link>
              <small>
                <ElapsedTime at={item.createdAt} now={now} />
              </small>
            </Item>
          ))}
        </List>
        {list.hasNextPage && (
          <Button
            $variant="secondary"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            {t('notification-more')}
          </Button>
        )}
      </Panel>
    </Page>
  );
}
