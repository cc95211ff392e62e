import { Localized } from '@fluent/react';
import { Link } from 'react-router';
import styled from 'styled-components';
import { ThemeSelect } from '../../components/ThemeSelect';

const Main = styled.main`
  max-width: 960px;
  margin: 0 auto;
  padding: 24px 16px 96px;
`;

const Features = styled.ul`
  list-style: none;
  padding: 0;
  display: grid;
  gap: 16px;
  grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
`;

const Feature = styled.li`
  background: ${({ theme }) => theme.colours.surface};
  border: 1px solid ${({ theme }) => theme.colours.border};
  border-radius: 12px;
  padding: 16px;
`;

const Actions = styled.div`
  display: flex;
  gap: 12px;
  flex-wrap: wrap;
  margin: 24px 0;
`;

const ButtonLink = styled(Link)<{ $primary?: boolean }>`
  display: inline-block;
  padding: 12px 24px;
  border-radius: 999px;
  text-decoration: none;
  font-weight: bold;
  border: 2px solid ${({ theme }) => theme.colours.primary};
  background: ${({ theme, $primary }) => ($primary ? theme.colours.primary : theme.colours.surface)};
  color: ${({ theme, $primary }) => ($primary ? theme.colours.onPrimary : theme.colours.primary)};
`;

const FEATURES = ['memory', 'endingnote', 'timecapsule'] as const;

export function Component() {
  return (
    <Main>
      <Localized id="home-heading">
        <h1 />
      </Localized>
      <Localized id="home-lead">
        <p />
      </Localized>
      <Actions>
        <Localized id="home-register">
          <ButtonLink to="/register-top?register=true" $primary />
        </Localized>
        <Localized id="home-login">
          <ButtonLink to="/login" />
        </Localized>
      </Actions>
      <Features>
        {FEATURES.map((feature) => (
          <Feature key={feature}>
            <Localized id={`home-feature-${feature}`}>
              <h2 />
            </Localized>
            <Localized id={`home-feature-${feature}-text`}>
              <p />
            </Localized>
          </Feature>
        ))}
      </Features>
      <ThemeSelect />
    </Main>
  );
}
