import { describe, expect, it } from 'vitest';
import { afterLoginTarget } from '../../src/screens/login/redirect';
import { failureFromQuery } from '../../src/screens/login/signInFailure';
import { registrationSetupFromQuery } from '../../src/machines/registration';

const query = (text: string) => new URLSearchParams(text);
const text = (query: string) => query;

describe('after sign-in', () => {
  it('goes to the page first asked for, else a same-site callbackUrl, else the dashboard', () => {
    expect(afterLoginTarget('/connection', '/mypage')).toBe('/connection');
    expect(afterLoginTarget(null, '/mypage?tab=1')).toBe('/mypage?tab=1');
    expect(afterLoginTarget(null, null)).toBe('/dashboard');
  });

  it('never leaves the site and never returns to the login or logout screen', () => {
    expect(afterLoginTarget('//evil.example/x', 'https://evil.example')).toBe('/dashboard');
    expect(afterLoginTarget('/\\evil.example', null)).toBe('/dashboard');
    expect(afterLoginTarget('/login?error=x', null)).toBe('/dashboard');
    // A request answered 401 while signing out sends the member to /login from /logout.
    expect(afterLoginTarget('/logout', null)).toBe('/dashboard');
    expect(afterLoginTarget('/logout?x=1', '/logout')).toBe('/dashboard');
  });
});

describe('the failure /login was sent with', () => {
  it('reads credentials failures by code, social failures as such, the rest as unexpected', () => {
    expect(failureFromQuery(query(''))).toBeNull();
    expect(failureFromQuery(query('error=CredentialsSignin&code=account_locked'))).toBe(
      'login-error-account_locked',
    );
    expect(failureFromQuery(query('error=CredentialsSignin&code=whatever'))).toBe(
      'error-unexpected',
    );
    expect(failureFromQuery(query('error=OAuthCallback'))).toBe('login-error-external');
    expect(
      failureFromQuery(query('error=OAuthCallback&code=account_memorialized&since=2026-01-01')),
    ).toBe('login-error-account_memorialized');
    expect(failureFromQuery(query('error=SessionRequired'))).toBeNull();
    expect(failureFromQuery(query('error=Default'))).toBe('error-unexpected');
  });
});

describe('registration URL', () => {
  it('tells the variants and modes apart', () => {
    expect(registrationSetupFromQuery(text('register=true'), null)).toMatchObject({
      variant: 'standard',
      mode: null,
    });
    expect(registrationSetupFromQuery(text('inflow=True'), null)).toMatchObject({
      variant: 'inflow',
      inflowId: null,
    });
    expect(registrationSetupFromQuery(text('inflowId=p-1&otherAdmin=true'), null)).toMatchObject({
      variant: 'inflow',
      inflowId: 'p-1',
      mode: 'otherAdmin',
    });
    expect(
      registrationSetupFromQuery(
        text('provider=line&providerUserId=U1&assertion=a.b.c&email=a%40example.jp&name=hana'),
        null,
      ),
    ).toMatchObject({
      variant: 'external',
      provider: { providerName: 'line', providerUserId: 'U1', accessToken: 'a.b.c' },
      prefill: { email: 'a@example.jp', username: 'hana' },
    });
  });

  it('takes the pet page from the URL, else from the pet page being set up here', () => {
    expect(registrationSetupFromQuery(text('pet=true&adminPetId=p-9'), 'p-1').adminPetId).toBe(
      'p-9',
    );
    expect(registrationSetupFromQuery(text('pet=true'), 'p-1').adminPetId).toBe('p-1');
    expect(registrationSetupFromQuery(text('register=true'), 'p-1').adminPetId).toBeNull();
  });
});
