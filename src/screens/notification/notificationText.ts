import type { FluentVariable } from '@fluent/bundle';
import type { useT } from '../../i18n/useT';
import type { NotificationItem } from '../../services/api/social';
import { NOTIFICATION_KINDS } from '../../../contract/rules/social';
import { letterPath } from '../timecapsule/letterPaths';

const KNOWN_KINDS: ReadonlySet<string> = new Set(NOTIFICATION_KINDS);

/** Where a notification leads: the thing it is about. */
export function targetOf(item: NotificationItem): string {
  const pageId = item.payload.memorialPageId;
  switch (item.kind) {
    case 'connection_requested':
    case 'connection_accepted':
      return '/connection';
    case 'death_administrator_named':
      return '/death-administration';
    case 'data_export_requested':
    case 'data_export_ready':
      return '/mypage';
    // The archive is downloaded from the administrators' page.
    case 'death_archive_ready':
      return '/death-administration';
    case 'death_choices_carried_out':
      return typeof item.payload.userId === 'string'
        ? `/death-administration/${encodeURIComponent(item.payload.userId)}`
        : '/death-administration';
    // A deleted member's page stays only when they chose so (an empty id otherwise).
    case 'death_account_deleted':
      return typeof pageId === 'string' && pageId !== ''
        ? `/memory/${encodeURIComponent(pageId)}`
        : '/death-administration';
    case 'letter_delivered':
      return typeof item.payload.letterId === 'string'
        ? letterPath(item.payload.letterId)
        : '/timecapsule/list';
    default:
      return typeof pageId === 'string' ? `/memory/${encodeURIComponent(pageId)}` : '/dashboard';
  }
}

export function textOf(t: ReturnType<typeof useT>, item: NotificationItem): string {
  if (!KNOWN_KINDS.has(item.kind)) return t('notification-kind-unknown');
  const args = Object.fromEntries(
    Object.entries(item.payload).filter(([, value]) => typeof value === 'string'),
  ) as Record<string, FluentVariable>;
  // A suspicion whose case was cancelled says so: it is no longer an open alarm.
  if (
    (item.kind === 'death_suspected' || item.kind === 'death_confirmed') &&
    typeof item.payload.cancelledAt === 'string'
  )
    return t(`notification-kind-${item.kind}-cancelled`, args);
  return t(`notification-kind-${item.kind}`, args);
}
