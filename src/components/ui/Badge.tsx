import styled from 'styled-components';
import { useT } from '../../i18n/useT';

/** Above this the badge shows the cap followed by a plus sign (99+). */
export const BADGE_CAP = 99;

/** The text of an unread badge: null (no badge) at 0, the number up to the cap, then "99+". */
export function badgeText(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > BADGE_CAP ? `${BADGE_CAP}+` : String(Math.floor(count));
}

const Bubble = styled.span`
  position: absolute;
  top: -4px;
  right: -8px;
  min-width: 20px;
  height: 20px;
  padding: 0 5px;
  border-radius: 10px;
  background: ${({ theme }) => theme.colours.attention};
  color: ${({ theme }) => theme.colours.onAttention};
  font-size: 12px;
  font-weight: bold;
  line-height: 20px;
  text-align: center;
  pointer-events: none;
`;

/** The unread count over an icon; its parent must be `position: relative`. */
export function Badge({ count }: { count: number }) {
  const t = useT();
  const text = badgeText(count);
  if (text === null) return null;
  return <Bubble aria-label={t('badge-unread', { count: text })}>{text}</Bubble>;
}
