import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { authSessionMachine } from '../../src/machines/authSession';
import { tokenRefreshMachine, type RefreshedTokens } from '../../src/machines/tokenRefresh';
import type { AuthSession } from '../../contract/sessionLayer';
import { SessionError } from '../../src/services/api/session';
import { httpSessionOf } from '../../src/services/session/liveSession';
import { storedUserIdIsInvalid } from '../../src/services/session/storedUser';

const session: AuthSession = {
  user: { id: 'u-1', username: 'yamada', memorialPageId: 'm-1', iconUrl: null },
  accessToken: 'access-1',
  expires: '2026-12-22T00:00:00.000Z',
};

/** The session machine with a session already in the cookie and a sign-out that succeeds. */
async function signedIn(stored: AuthSession) {
  const actor = createActor(
    authSessionMachine.provide({
      actors: {
        fetchSession: fromPromise(async (): Promise<AuthSession | null> => stored),
        signOut: fromPromise(async (): Promise<void> => undefined),
        tokenRefresh: tokenRefreshMachine.provide({
          actors: {
            requestTokens: fromPromise(async (): Promise<RefreshedTokens> => {
              throw new SessionError(401, 'invalid_refresh_token');
            }),
          },
        }),
      },
    }),
    { input: {} },
  ).start();
  await waitFor(actor, (snapshot) => snapshot.matches('authenticated'));
  const goToLogin = vi.fn();
  return { actor, goToLogin, http: httpSessionOf(actor, goToLogin) };
}

describe('the HTTP client and the session', () => {
  it('gives the access token once the session is known', async () => {
    const { http } = await signedIn(session);
    expect(await http.accessToken()).toBe('access-1');
  });

  it('logs out when the session layer refuses the refresh (no refresh token in the cookie)', async () => {
    const { actor, http } = await signedIn(session);
    expect(await http.refresh()).toEqual({ ok: false, loggedOut: true, error: undefined });
    await waitFor(actor, (snapshot) => snapshot.matches('unauthenticated'));
  });

  it('sends to /login after an authorisation failure, except for a memorial call', async () => {
    // The memorial API's real paths: a page, its album, its history.
    for (const path of [
      '/v1/memorial_page/m-1',
      '/v1/album/memorial_page_id/m-1/album',
      '/v1/history/get_histories_by_memorial_page_id/m-1',
    ]) {
      const memory = await signedIn(session);
      memory.http.authorisationFailed(path);
      expect(memory.goToLogin, path).not.toHaveBeenCalled();
      await waitFor(memory.actor, (snapshot) => snapshot.matches('unauthenticated'));
    }

    const other = await signedIn(session);
    other.http.authorisationFailed('/v1/user/u-1');
    expect(other.goToLogin).toHaveBeenCalledTimes(1);
    await waitFor(other.actor, (snapshot) => snapshot.matches('unauthenticated'));
  });
});

describe('the stored user id', () => {
  it('must be a string when a user is stored', () => {
    expect(storedUserIdIsInvalid(null)).toBe(false);
    expect(storedUserIdIsInvalid(JSON.stringify({ user: null }))).toBe(false);
    expect(storedUserIdIsInvalid(JSON.stringify({ user: { id: 'u-1' } }))).toBe(false);
    expect(storedUserIdIsInvalid(JSON.stringify({ user: { id: 42 } }))).toBe(true);
    expect(storedUserIdIsInvalid(JSON.stringify({ user: 'u-1' }))).toBe(true);
    expect(storedUserIdIsInvalid('{not json')).toBe(true);
  });
});
