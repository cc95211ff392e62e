import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { ButtonLink } from '../ui/Button';
import { entries } from './menu';

/** Within this distance of the page bottom the banner steps aside for the footer. */
export const BANNER_BOTTOM_GAP_PX = 50;

/**
 * Where the banner is never shown: the login and registration entry pages already are what
 * the banner offers (docs/app-shell.md).
 */
export const BANNER_HIDDEN_PATHS: readonly string[] = ['/login', '/register-top'];

export const BANNER_HEIGHT = 72;

/** True when the viewport's bottom edge is within the gap of the document's end. */
export function isNearPageBottom(): boolean {
  const viewportBottom = window.scrollY + window.innerHeight;
  return document.documentElement.scrollHeight - viewportBottom <= BANNER_BOTTOM_GAP_PX;
}

function useNearPageBottom(pathname: string, shown: boolean): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    // Where the banner is never shown, nothing to follow: each check reads the page's height,
    // which makes the browser lay the page out there and then (a cost on slow phones just as
    // the first screen is drawn).
    if (!shown) return;
    const update = () => setNear(isNearPageBottom());
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    // Content that loads after the route changes the page height without a scroll.
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
      observer?.disconnect();
    };
  }, [pathname, shown]);
  return near;
}

const Bar = styled.aside`
  position: fixed;
  left: 0;
  right: 0;
  bottom: 0;
  z-index: 100;
  display: flex;
  align-items: center;
  justify-content: center;
  gap: 12px;
  min-height: ${BANNER_HEIGHT}px;
  padding: 12px 16px calc(12px + env(safe-area-inset-bottom));
  background: ${({ theme }) => theme.colours.surface};
  border-top: 1px solid ${({ theme }) => theme.colours.border};
  box-shadow: 0 -2px 8px rgba(0, 0, 0, 0.08);
  /* A short screen keeps more of the page above the fixed bar. */
  ${({ theme }) => theme.short} {
    min-height: 0;
    padding: 6px 16px calc(6px + env(safe-area-inset-bottom));
  }
`;

/** The visitor's banner with login and registration, out of the way near the page bottom. */
export function Banner({ pathname }: { pathname: string }) {
  const t = useT();
  const hiddenHere = BANNER_HIDDEN_PATHS.includes(pathname);
  const nearBottom = useNearPageBottom(pathname, !hiddenHere);
  if (hiddenHere || nearBottom) return null;
  return (
    <Bar aria-label={t('banner-label')} data-testid="guest-banner">
      <ButtonLink to={entries.login.to} $variant="secondary">
        {t('menu-login')}
      </ButtonLink>
      <ButtonLink to={entries.register.to}>{t('menu-register')}</ButtonLink>
    </Bar>
  );
}
