import { Localized } from '@fluent/react';
import { Link } from 'react-router';
import styled from 'styled-components';

const Main = styled.main`
  max-width: 640px;
  margin: 0 auto;
  padding: 48px 16px;
  text-align: center;
`;

export function Component() {
  return (
    <Main>
      <Localized id="not-found-heading">
        <h1 />
      </Localized>
      <Localized id="not-found-text">
        <p />
      </Localized>
      <Localized id="not-found-home">
        <Link to="/" />
      </Localized>
    </Main>
  );
}
