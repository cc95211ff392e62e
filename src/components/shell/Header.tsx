import { Suspense } from 'react';
import { Link } from 'react-router';
import styled, { css } from 'styled-components';
import { formatCount } from '../../i18n/formatCount';
import { useT } from '../../i18n/useT';
import { Badge } from '../ui/Badge';
import { Icon } from './icons';
import { MemberAvatar } from './lazyMemberParts';
import { headerEntries } from './menu';
import { MenuLink } from './MenuLink';
import type { ShellSession } from './shellSession';

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 100;
  display: flex;
  align-items: center;
  gap: 16px;
  height: ${({ theme }) => theme.sizes.headerHeight}px;
  padding: 0 16px;
  background: ${({ theme }) => theme.colours.surface};
  border-bottom: 1px solid ${({ theme }) => theme.colours.border};
`;

const Logo = styled(Link)`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: 1.6rem;
  font-weight: bold;
  color: ${({ theme }) => theme.colours.primary};
  text-decoration: none;
  margin-right: auto;
`;

/** Shown from the md breakpoint up. */
const Desktop = styled.div`
  display: none;
  align-items: center;
  gap: 16px;
  ${({ theme }) => theme.above('md')} {
    display: flex;
  }
`;

/** Shown below the md breakpoint (tablet and mobile). */
const Compact = styled.div`
  display: flex;
  align-items: center;
  gap: 4px;
  ${({ theme }) => theme.above('md')} {
    display: none;
  }
`;

const Nav = styled.nav`
  ul {
    display: flex;
    gap: 4px;
    list-style: none;
    margin: 0;
    padding: 0;
  }
`;

const menuItemLook = css`
  display: inline-flex;
  align-items: center;
  gap: 4px;
  min-height: 44px;
  padding: 8px 12px;
  border: none;
  border-radius: 8px;
  background: transparent;
  color: ${({ theme }) => theme.colours.text};
  font-weight: bold;
  text-decoration: none;
  cursor: pointer;
  &:hover {
    background: ${({ theme }) => theme.colours.base};
  }
`;

const Item = styled(MenuLink)`
  ${menuItemLook}
`;

const IconLink = styled(Link)`
  position: relative;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  border-radius: 50%;
  color: ${({ theme }) => theme.colours.text};
`;

const IconButton = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  border: none;
  border-radius: 50%;
  background: transparent;
  color: ${({ theme }) => theme.colours.text};
  cursor: pointer;
`;

/** Holds the avatar's place (the Avatar's default 44 px) while its module loads. */
const AvatarSpace = styled.span`
  display: inline-block;
  width: 44px;
  height: 44px;
`;

export interface HeaderProps {
  session: ShellSession;
  unreadCount: number;
  /** `?inflow=True`: the user menus are hidden. */
  inflow: boolean;
  burgerOpen: boolean;
  onToggleBurger: () => void;
}

/** Desktop: logo, menu items, notifications, avatar. Tablet and mobile: logo, search, burger. */
export function Header({ session, unreadCount, inflow, burgerOpen, onToggleBurger }: HeaderProps) {
  const t = useT();
  const user = session.status === 'authenticated' ? session.user : null;
  const showMenus = !inflow && session.status !== 'loading';
  return (
    <Bar>
      <Logo to="/" aria-label={t('header-logo-label')}>
        {t('app-name')}
      </Logo>
      {showMenus && (
        <>
          <Desktop data-testid="header-desktop">
            <Nav aria-label={t('header-menu-label')}>
              <ul>
                {(user ? headerEntries.member : headerEntries.guest).map((entry) => (
                  <li key={entry.id}>
                    <Item entry={entry} />
                  </li>
                ))}
              </ul>
            </Nav>
            {user && (
              <>
                <IconLink
                  to="/notification/list"
                  aria-label={t('header-notifications', { count: formatCount(unreadCount) })}
                >
                  <Icon name="bell" />
                  <Badge count={unreadCount} />
                </IconLink>
                <Link to="/mypage" aria-label={t('menu-mypage')}>
                  <Suspense fallback={<AvatarSpace />}>
                    <MemberAvatar userId={user.id} image={user.iconUrl} name={user.username} />
                  </Suspense>
                </Link>
              </>
            )}
          </Desktop>
          <Compact data-testid="header-compact">
            <IconLink to="/user-search" aria-label={t('menu-user-search')}>
              <Icon name="search" />
            </IconLink>
            <IconButton
              type="button"
              aria-label={t(burgerOpen ? 'burger-close' : 'burger-open')}
              aria-expanded={burgerOpen}
              aria-controls="burger-menu"
              onClick={onToggleBurger}
            >
              <Icon name={burgerOpen ? 'close' : 'burger'} />
            </IconButton>
          </Compact>
        </>
      )}
    </Bar>
  );
}
