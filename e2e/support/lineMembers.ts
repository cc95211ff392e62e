import { expect, type APIRequestContext } from '@playwright/test';
import { mailedActivationLink } from './members';

/** Members who sign in with the local provider the e2e server knows as LINE (socialProvider.ts). */

/**
 * One round trip through the local provider from `request`'s context, as the login screen's
 * LINE button makes it (the provider signs in whoever `signInNext` named): answers where the
 * app sent the browser at the end.
 */
export async function lineRoundTrip(request: APIRequestContext, callbackUrl = '/dashboard') {
  const csrf = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const started = await request.post('/api/auth/signin/line', {
    form: { csrfToken: csrf.csrfToken, callbackUrl, json: 'true' },
  });
  expect(started.status(), await started.text()).toBe(200);
  const landed = await request.get(((await started.json()) as { url: string }).url);
  return new URL(landed.url());
}

/**
 * A member who signs in only with LINE, registered through the API as the external-provider
 * registration screen does it and activated with the mailed link; `request`'s context is left
 * signed in (a second LINE round trip), and the member's fresh access token is answered.
 */
export async function registerLineMember(
  request: APIRequestContext,
  provider: { signInNext(account: { sub: string; email: string; name: string }): void },
  account: { sub: string; email: string },
): Promise<{ userId: string; accessToken: string }> {
  provider.signInNext({ ...account, name: 'めぐみ' });
  const registration = await lineRoundTrip(request);
  expect(registration.pathname).toBe('/register-top');
  const created = await request.post('/v1/user/create_user_with_external_provider', {
    data: {
      user_request: {
        username: 'megumi',
        email: account.email,
        first_name: '恵',
        last_name: '高橋',
        first_name_kana: 'めぐみ',
        last_name_kana: 'たかはし',
        address: '東京都',
        birthdate: '1950-04-01',
        sex_code: 2,
      },
      provider_request: {
        provider_name: 'line',
        provider_user_id: account.sub,
        access_token: registration.searchParams.get('assertion'),
        expired_date: null,
      },
    },
  });
  expect(created.status(), await created.text()).toBe(202);
  // The mailed link's page completes the registration with a new LINE sign-in (its button's
  // round trip, which comes back to the page with the assertion), as the screen does.
  const token = (await mailedActivationLink(account.email)).searchParams.get('token')!;
  provider.signInNext({ ...account, name: 'めぐみ' });
  const link = { token, email: account.email };
  const back = await request.get(`/api/auth/activate/line?${new URLSearchParams(link)}`);
  const assertion = new URL(back.url()).searchParams.get('assertion');
  expect(assertion, back.url()).toEqual(expect.any(String));
  const csrf = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const activated = await request.post('/api/auth/callback/activation', {
    form: { ...link, assertion: assertion!, csrfToken: csrf.csrfToken, json: 'true' },
  });
  expect(activated.status(), await activated.text()).toBe(200);
  provider.signInNext({ ...account, name: 'めぐみ' });
  expect((await lineRoundTrip(request)).pathname).toBe('/dashboard');
  const session = (await (await request.get('/api/auth/session')).json()) as {
    user: { id: string; accessToken: string };
  };
  return { userId: session.user.id, accessToken: session.user.accessToken };
}
