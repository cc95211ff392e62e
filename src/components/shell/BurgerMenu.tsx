import { Suspense, useRef } from 'react';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { useBodyScrollLock, useFocusTrap } from '../ui/useFocusTrap';
import { Icon } from './icons';
import { MemberAvatar } from './lazyMemberParts';
import { entries, otherEntries, serviceEntries, type MenuEntry } from './menu';
import { MenuLink } from './MenuLink';
import type { ShellUser } from './shellSession';

const PANEL_WIDTH = 320;

const Overlay = styled.div<{ $open: boolean }>`
  position: fixed;
  inset: 0;
  z-index: 200;
  background: rgba(0, 0, 0, 0.4);
  opacity: ${({ $open }) => ($open ? 1 : 0)};
  visibility: ${({ $open }) => ($open ? 'visible' : 'hidden')};
  transition: ${({ $open }) => ($open ? 'opacity 0.2s' : 'opacity 0.2s, visibility 0s 0.2s')};
  /* The burger belongs to the compact header: a window widened to desktop drops it. */
  ${({ theme }) => theme.above('md')} {
    display: none;
  }
`;

const Panel = styled.div<{ $open: boolean }>`
  position: fixed;
  top: 0;
  right: 0;
  bottom: 0;
  z-index: 201;
  width: min(${PANEL_WIDTH}px, 85vw);
  overflow-y: auto;
  padding: 16px;
  background: ${({ theme }) => theme.colours.surface};
  color: ${({ theme }) => theme.colours.text};
  transform: translateX(${({ $open }) => ($open ? '0' : '100%')});
  visibility: ${({ $open }) => ($open ? 'visible' : 'hidden')};
  /* Visible at once when opening (focus moves in straight away), hidden after the slide out. */
  transition: ${({ $open }) => ($open ? 'transform 0.2s' : 'transform 0.2s, visibility 0s 0.2s')};
  @media (prefers-reduced-motion: reduce) {
    transition: none;
  }
  ${({ theme }) => theme.above('md')} {
    display: none;
  }
`;

const Top = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
  padding-bottom: 12px;
  border-bottom: 1px solid ${({ theme }) => theme.colours.border};
`;

const Name = styled.p`
  flex: 1;
  margin: 0;
  font-weight: bold;
  overflow-wrap: anywhere;
`;

const Close = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  margin-left: auto;
  border: none;
  border-radius: 50%;
  background: transparent;
  color: inherit;
  cursor: pointer;
`;

const GroupTitle = styled.h2`
  margin: 20px 0 4px;
  font-size: 0.9rem;
  color: ${({ theme }) => theme.colours.textMuted};
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
`;

const Entry = styled(MenuLink)`
  display: flex;
  align-items: center;
  gap: 4px;
  width: 100%;
  min-height: 44px;
  padding: 8px 4px;
  border: none;
  background: transparent;
  color: ${({ theme }) => theme.colours.text};
  text-align: left;
  text-decoration: none;
  cursor: pointer;
`;

function Group({ titleId, items }: { titleId: string; items: MenuEntry[] }) {
  const t = useT();
  return (
    <section aria-labelledby={`burger-${titleId}`}>
      <GroupTitle id={`burger-${titleId}`}>{t(titleId)}</GroupTitle>
      <List>
        {items.map((entry) => (
          <li key={entry.id}>
            <Entry entry={entry} />
          </li>
        ))}
      </List>
    </section>
  );
}

export interface BurgerMenuProps {
  open: boolean;
  onClose: () => void;
  /** The logged-in member, or null for a visitor (login and registration entries instead). */
  user: ShellUser | null;
}

/**
 * The slide-in menu of tablet and mobile: the member's name, my page and feedback, then the
 * groups of the service and "other". While open, the page behind does not scroll and focus
 * stays inside; the overlay, the close button and Escape close it.
 */
export function BurgerMenu({ open, onClose, user }: BurgerMenuProps) {
  const t = useT();
  const panel = useRef<HTMLDivElement>(null);
  useFocusTrap(panel, open);
  useBodyScrollLock(open);
  return (
    <>
      <Overlay $open={open} data-testid="burger-overlay" onClick={onClose} aria-hidden="true" />
      <Panel
        ref={panel}
        id="burger-menu"
        $open={open}
        role="dialog"
        aria-modal="true"
        aria-label={t('burger-label')}
        aria-hidden={!open}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
      >
        <Top>
          {user && (
            <Suspense fallback={null}>
              <MemberAvatar image={user.iconUrl} name={user.username} size={40} />
            </Suspense>
          )}
          <Name>{user ? t('burger-user-name', { name: user.username }) : t('burger-guest')}</Name>
          <Close type="button" aria-label={t('burger-close')} onClick={onClose}>
            <Icon name="close" />
          </Close>
        </Top>
        <nav aria-label={t('burger-label')}>
          <List>
            {user ? (
              <li>
                <Entry entry={entries.mypage} />
              </li>
            ) : (
              <>
                <li>
                  <Entry entry={entries.login} />
                </li>
                <li>
                  <Entry entry={entries.register} />
                </li>
              </>
            )}
            <li>
              <Entry entry={entries.feedback} />
            </li>
          </List>
          {user && <Group titleId="burger-group-service" items={serviceEntries} />}
          <Group titleId="burger-group-other" items={otherEntries} />
        </nav>
      </Panel>
    </>
  );
}
