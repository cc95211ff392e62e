import { NavLink } from 'react-router';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { Badge } from '../ui/Badge';
import { Icon, type IconName } from './icons';

const TABS: { to: string; labelId: string; icon: IconName; showsUnread?: boolean }[] = [
  { to: '/dashboard', labelId: 'tab-home', icon: 'home' },
  { to: '/mourning', labelId: 'tab-mourning', icon: 'mourn' },
  { to: '/connection', labelId: 'tab-connection', icon: 'connection' },
  { to: '/notification/list', labelId: 'tab-notification', icon: 'bell', showsUnread: true },
];

const Bar = styled.nav`
  position: fixed;
  left: 0;
  right: 0;
  bottom: 0;
  z-index: 100;
  height: calc(${({ theme }) => theme.sizes.tabBarHeight}px + env(safe-area-inset-bottom));
  padding-bottom: env(safe-area-inset-bottom);
  background: ${({ theme }) => theme.colours.surface};
  border-top: 1px solid ${({ theme }) => theme.colours.border};
  ${({ theme }) => theme.above('sm')} {
    display: none;
  }
  ul {
    display: grid;
    grid-template-columns: repeat(${TABS.length}, 1fr);
    height: 100%;
    list-style: none;
    margin: 0;
    padding: 0;
  }
`;

const Tab = styled(NavLink)`
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  height: 100%;
  font-size: 0.75rem;
  color: ${({ theme }) => theme.colours.textMuted};
  text-decoration: none;
  &.active {
    color: ${({ theme }) => theme.colours.primary};
    font-weight: bold;
  }
`;

const IconSpot = styled.span`
  position: relative;
  display: inline-flex;
`;

/** The member's bottom tab bar on mobile: home, mourn, relationships, information. */
export function TabBar({ unreadCount }: { unreadCount: number }) {
  const t = useT();
  return (
    <Bar aria-label={t('tab-bar-label')} data-testid="tab-bar">
      <ul>
        {TABS.map((tab) => (
          <li key={tab.to}>
            <Tab to={tab.to}>
              <IconSpot>
                <Icon name={tab.icon} />
                {tab.showsUnread && <Badge count={unreadCount} />}
              </IconSpot>
              {t(tab.labelId)}
            </Tab>
          </li>
        ))}
      </ul>
    </Bar>
  );
}
