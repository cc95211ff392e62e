import { QueryLayer } from '../../services/queries/queryClient';
import { useCertificated } from '../../services/frame/useCertificated';
import { useUnreadCount } from '../../services/frame/useUnreadCount';
import { Avatar, type AvatarProps } from '../ui/Avatar';

/*
 * The parts of the frame that only a signed-in member sees and that read the API through
 * TanStack Query. ShellFrame, Header and BurgerMenu load this module lazily, so a visitor's
 * first paint loads neither it nor the query library.
 */

/** Polls the unread count into the `unreadNotification` slice while mounted. */
export function UnreadCountPoller() {
  return (
    <QueryLayer>
      <Poll />
    </QueryLayer>
  );
}

function Poll() {
  useUnreadCount();
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
