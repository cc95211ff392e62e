import { QueryLayer } from '../../services/queryClient';
import { useCertificated } from '../deathDetection/useCertificated';
import type { ApiGet } from '../ui/apiGet';
import { Avatar, type AvatarProps } from '../ui/Avatar';
import { useUnreadCount } from './useUnreadCount';

/*
 * The parts of the frame that only a signed-in member sees and that read the API through
 * TanStack Query. ShellFrame, Header and BurgerMenu load this module lazily, so a visitor's
 * first paint loads neither it nor the query library.
 */

/** Polls the unread count into the `unreadNotification` slice while mounted. */
export function UnreadCountPoller({ apiGet }: { apiGet: ApiGet }) {
  return (
    <QueryLayer>
      <Poll apiGet={apiGet} />
    </QueryLayer>
  );
}

function Poll({ apiGet }: { apiGet: ApiGet }) {
  useUnreadCount(apiGet);
  return null;
}

/** The member's avatar; with `userId`, marked certificated or not as the server tells. */
export function MemberAvatar({ userId, ...avatar }: AvatarProps & { userId?: string }) {
  return (
    <QueryLayer>
      {userId === undefined ? (
        <Avatar {...avatar} />
      ) : (
        <CertifiedAvatar userId={userId} {...avatar} />
      )}
    </QueryLayer>
  );
}

function CertifiedAvatar({ userId, ...avatar }: AvatarProps & { userId: string }) {
  return <Avatar {...avatar} certificated={useCertificated(userId)} />;
}
