import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { useSlice } from '../../services/clientState/clientState';
import { tokyoYear } from '../../../contract/rules/tokyoDate';
import { Banner } from './Banner';
import { BurgerMenu } from './BurgerMenu';
import { useChromeVisibility } from './chrome';
import { Footer } from './Footer';
import { Header } from './Header';
import { UnreadCountPoller } from './lazyMemberParts';
import type { ShellSession } from './shellSession';
import { TabBar } from './TabBar';
import { MenuNavigationProvider } from './useMenuNavigation';

// The death-detection flow talks to the API through the HTTP client: loaded after the first
// paint, for members only, so that the entry route stays without axios.
const DeathDetectionModals = lazy(() =>
  import('../deathDetection/DeathDetectionModals').then((module) => ({
    default: module.DeathDetectionModals,
  })),
);

/** `?inflow=True` (a partner's embedded entry) hides the user menus and the bottom bars. */
export function isInflow(search: string): boolean {
  return new URLSearchParams(search).get('inflow') === 'True';
}

const Root = styled.div<{ $tabBar: boolean }>`
  display: flex;
  flex-direction: column;
  min-height: 100vh;
  ${({ theme }) => theme.below('sm')} {
    padding-bottom: ${({ $tabBar, theme }) => ($tabBar ? theme.sizes.tabBarHeight : 0)}px;
  }
`;

const Content = styled.div`
  flex: 1;
  &:focus {
    outline: none;
  }
`;

const SkipLink = styled.a`
  position: absolute;
  left: 8px;
  top: -100px;
  z-index: 1000;
  padding: 8px 16px;
  background: ${({ theme }) => theme.colours.surface};
  &:focus {
    top: 8px;
  }
`;

export interface ShellFrameProps {
  session: ShellSession;
  children: ReactNode;
}

/** Header, burger menu, footer, tab bar and banner around the current screen. */
export function ShellFrame({ session, children }: ShellFrameProps) {
  const t = useT();
  const { pathname, search, key: locationKey } = useLocation();
  const chrome = useChromeVisibility(pathname);
  const inflow = isInflow(search);
  const user = session.status === 'authenticated' ? session.user : null;
  const { count } = useSlice('unreadNotification');
  const unreadCount = user ? count : 0;

  // The menu remembers the location it was opened on, so any navigation (even to the same
  // page, e.g. a followed link to it) closes it. Local
  // state, not the shared `nav` slice: that slice is written whole by several owners
  // (session, login redirect), and a write from a stale copy would reopen or close it.
  const [menu, setMenu] = useState({ open: false, openedOn: locationKey });
  const burgerOpen = menu.open && menu.openedOn === locationKey && chrome.header && !inflow;
  const setBurgerOpen = (open: boolean) => setMenu({ open, openedOn: locationKey });

  const showTabBar = chrome.footer && user !== null && !inflow;
  const showBanner = chrome.footer && session.status === 'unauthenticated' && !inflow;

  return (
    <MenuNavigationProvider session={session}>
      <Root $tabBar={showTabBar}>
        <SkipLink href="#content">{t('app-skip-to-content')}</SkipLink>
        {chrome.header && (
          <>
            <Header
              session={session}
              unreadCount={unreadCount}
              inflow={inflow}
              burgerOpen={burgerOpen}
              onToggleBurger={() => setBurgerOpen(!burgerOpen)}
            />
            {!inflow && (
              <BurgerMenu open={burgerOpen} onClose={() => setBurgerOpen(false)} user={user} />
            )}
            {user && !inflow && (
              <Suspense fallback={null}>
                <DeathDetectionModals key={user.id} userId={user.id} />
              </Suspense>
            )}
          </>
        )}
        {user && (
          <Suspense fallback={null}>
            <UnreadCountPoller />
          </Suspense>
        )}
        <Content id="content" tabIndex={-1}>
          {children}
        </Content>
        {chrome.footer && <Footer year={tokyoYear(new Date())} />}
        {showTabBar && <TabBar unreadCount={unreadCount} />}
        {showBanner && <Banner pathname={pathname} />}
      </Root>
    </MenuNavigationProvider>
  );
}
