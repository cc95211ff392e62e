import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useClientStateSend } from '../clientState/clientState';
import { ApiStatusError } from '../http/lazy';
import { fetchUnreadCount } from './frameReads';

/** How often the unread count is asked again while a member is logged in. */
export const UNREAD_POLL_MS = 60_000;

/**
 * The member's unread notifications, polled from the API into the `unreadNotification`
 * slice (which the notification screens also update when they mark something read) for as
 * long as the caller is mounted: the frame mounts it for members only. An API without the
 * endpoint (404) or any failure leaves the last known count.
 */
export function useUnreadCount(): void {
  const send = useClientStateSend();
  const polled = useQuery({
    queryKey: ['notification', 'unread-count'],
    refetchInterval: UNREAD_POLL_MS,
    retry: (failures, error) =>
      !(error instanceof ApiStatusError && error.status === 404) && failures < 1,
    queryFn: fetchUnreadCount,
  });
  const { data, dataUpdatedAt } = polled;
  // Only a new answer updates the slice, so a count lowered by a screen is not overwritten.
  useEffect(() => {
    if (data === undefined) return;
    send({ type: 'UPDATE', slice: 'unreadNotification', value: { count: data } });
  }, [data, dataUpdatedAt, send]);
}
