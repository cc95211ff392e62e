import type { ComponentType } from 'react';
import { Link } from 'react-router';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';

const Main = styled.main`
  max-width: 640px;
  margin: 0 auto;
  padding: 48px 16px;
  text-align: center;
`;

/** A route whose capability is not built yet: it says so plainly instead of a blank page. */
export function ComingSoon({ screen }: { screen: string }) {
  const t = useT();
  return (
    <Main>
      <h1>{t(`screen-${screen}`)}</h1>
      <p>{t('coming-soon-text')}</p>
      <Link to="/">{t('not-found-home')}</Link>
    </Main>
  );
}

const screens = new Map<string, ComponentType>();

/** The route component of one not-yet-built screen (`screen-<name>` is its title id). */
export function comingSoonScreen(screen: string): ComponentType {
  let component = screens.get(screen);
  if (!component) {
    component = () => <ComingSoon screen={screen} />;
    screens.set(screen, component);
  }
  return component;
}
