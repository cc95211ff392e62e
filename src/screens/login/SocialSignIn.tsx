import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import styled from 'styled-components';
import { useT } from '../../i18n/useT';
import { sessionApi } from '../../services/api/session';
import { browserSessionApi } from '../../services/session/owedSignOut';
import { useClientStateSend, useSlice } from '../../services/clientState/clientState';
import type { ShinobuTheme } from '../../theme/tokens';

type Brand = keyof ShinobuTheme['social'];
const BRANDS: readonly string[] = ['line', 'google', 'facebook', 'twitter'];
const isBrand = (id: string): id is Brand => BRANDS.includes(id);

/** The Fluent id of a provider's display name ("LINE", not the id "line"). */
export const providerLabelId = (id: string) => (isBrand(id) ? `provider-${id}` : null);

const List = styled.ul`
  list-style: none;
  padding: 0;
  margin: 16px 0 0;
  display: grid;
  gap: 12px;
`;

// Brand colours mark the button; the text keeps the theme's contrast (LINE green and
// Facebook blue under white text fall short of WCAG AA).
const ProviderButton = styled.button<{ $brand: Brand }>`
  width: 100%;
  min-height: 44px;
  display: flex;
  align-items: center;
  justify-content: center;
  gap: 10px;
  border-radius: 999px;
  font-weight: bold;
  cursor: pointer;
  background: ${({ theme }) => theme.colours.surface};
  color: ${({ theme }) => theme.colours.text};
  border: 2px solid
    ${({ theme, $brand }) => ($brand === 'google' ? theme.colours.border : theme.social[$brand])};
  &::before {
    content: '';
    width: 14px;
    height: 14px;
    border-radius: 50%;
    background: ${({ theme, $brand }) => theme.social[$brand]};
    border: 1px solid ${({ theme }) => theme.colours.border};
  }
`;

/** Sign-in with each configured social provider; nothing when none is configured. */
export function SocialSignIn({ callbackUrl }: { callbackUrl: string }) {
  const t = useT();
  const [leaving, setLeaving] = useState(false);
  const nav = useSlice('nav');
  const send = useClientStateSend();
  const providers = useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: sessionApi.fetchProviders,
  });
  const [search] = useSearchParams();
  // Providers that cannot be fetched are logged and lead to the error page (which
  // shows the unexpected-error text on /login); once there, it is not left again.
  useEffect(() => {
    if (!providers.isError) return;
    void sessionApi.logClientError('CLIENT_FETCH_ERROR', providers.error);
    if (!search.has('error')) window.location.assign('/api/auth/error?error=Configuration');
  }, [providers.isError, providers.error, search]);
  const social = (providers.data ?? []).filter(
    (provider) => provider.type === 'oauth' && isBrand(provider.id),
  );
  if (social.length === 0) return null;

  const go = async (provider: string) => {
    setLeaving(true);
    // The page first asked for travels as the callbackUrl: it is used up here, as by a
    // password sign-in (localStorage is written at once, before the page is left).
    if (nav.postLoginRedirectUrl !== null) {
      send({ type: 'UPDATE', slice: 'nav', value: { ...nav, postLoginRedirectUrl: null } });
    }
    try {
      window.location.assign(await browserSessionApi.signInWithProvider(provider, callbackUrl));
    } catch {
      window.location.assign('/login?error=OAuthSignin');
    }
  };

  return (
    <section aria-labelledby="login-social-heading">
      <h2 id="login-social-heading">{t('login-social-heading')}</h2>
      <List>
        {social.map((provider) => (
          <li key={provider.id}>
            <ProviderButton
              type="button"
              $brand={provider.id as Brand}
              disabled={leaving}
              onClick={() => void go(provider.id)}
            >
              {t('login-with', { provider: t(`provider-${provider.id}`) })}
            </ProviderButton>
          </li>
        ))}
      </List>
    </section>
  );
}
