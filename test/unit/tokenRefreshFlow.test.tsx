/**
 * The token refresh's generated paths replayed under the app's session: a member's list of
 * notifications is refused with a 401 (the access token expired), which starts the refresh;
 * each actor outcome is the session layer's answer to the call that actor made (the cookie's
 * session, the refresh), and every state is checked by what the member sees.
 */
import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { tokenRefreshMachine } from '../../src/machines/tokenRefresh';
import { Component as NotificationListScreen } from '../../src/screens/notification/NotificationListScreen';
import {
  refreshedTokens,
  signedIn,
  tokenRefreshEvents,
  tokenRefreshInput,
} from '../model/sessionFlowEvents';
import { request } from './replay/heldServer';
import {
  placeholder,
  REFRESH_CALL,
  renderWithSession,
  SESSION_READ,
  SIGN_OUT_CALL,
  wireSession,
  type SessionWorld,
} from './replay/sessionWorld';
import { describeUiReplay, type Executor, type ViewAssertion } from './replay/uiReplay';

const LIST = request('GET', '/v1/notification/user_notifications?page=1');
const LOAD_ERROR = '読み込めませんでした。時間をおいてもう一度お試しください。';
const EMPTY = 'お知らせはまだありません。';

type EventType = `xstate.${'done' | 'error'}.actor.${'readStoredTokens' | 'requestTokens'}`;

/** The status of a failure event of the path (the wire's status of the refused call). */
const statusOf = (event: object) => {
  const error = (event as { error: { status?: number; response?: { status: number } } }).error;
  return error.status ?? error.response!.status;
};

/** The member is on the list of notifications; its first read was refused as expired. */
async function mount(): Promise<SessionWorld> {
  const world = renderWithSession(
    [
      { path: '/notification/list', Component: NotificationListScreen },
      { path: '/login', Component: placeholder('login page') },
    ],
    '/notification/list',
  );
  await world.server.answer(SESSION_READ, { status: 200, body: wireSession(signedIn) });
  const refused = await world.server.answer(LIST, {
    status: 401,
    body: { detail: 'token expired' },
  });
  expect(refused.bearer).toBe(tokenRefreshInput.accessToken);
  return world;
}

/** The refreshed session's token is what the retried list carries; the server lists. */
async function retriedWith(world: SessionWorld, accessToken: string) {
  const retried = await world.server.answer(LIST, {
    status: 200,
    body: { items: [], has_more: false },
  });
  expect(retried.bearer).toBe(accessToken);
}

const executors = {
  'xstate.done.actor.readStoredTokens': async (world, event) => {
    const stored = (event as unknown as { output: { accessToken: string } }).output;
    await world.server.answer(SESSION_READ, {
      status: 200,
      body: wireSession({ ...signedIn, ...stored }),
    });
    // Another tab refreshed already: its token is taken, and the list asked again with it.
    if (stored.accessToken !== tokenRefreshInput.accessToken)
      await retriedWith(world, stored.accessToken);
  },
  'xstate.error.actor.readStoredTokens': async ({ server }, event) => {
    await server.answer(SESSION_READ, { status: statusOf(event), body: {} });
  },
  'xstate.done.actor.requestTokens': async (world) => {
    const sent = await world.server.answer(REFRESH_CALL, {
      status: 200,
      body: wireSession({ ...signedIn, ...refreshedTokens }),
    });
    expect(sent.body).toEqual({ csrfToken: 'csrf-1' });
    await retriedWith(world, refreshedTokens.accessToken);
  },
  'xstate.error.actor.requestTokens': async ({ server }, event) => {
    const status = statusOf(event);
    await server.answer(REFRESH_CALL, {
      status,
      body: { code: status < 500 ? 'invalid_refresh_token' : 'unavailable' },
    });
  },
} satisfies Record<EventType, Executor<SessionWorld>>;

const asked = (world: SessionWorld, path: string) =>
  world.server.asked.filter((seen) => seen.path === path).length;
const waitingFor = (world: SessionWorld, method: string, path: string) =>
  waitFor(() =>
    expect(world.server.pending.map((held) => `${held.method} ${held.path}`)).toContain(
      `${method} ${path}`,
    ),
  );

/** Still on the list, waiting: neither the list nor a failure is shown yet. */
const stillLoading = (world: SessionWorld) => {
  expect(world.router.state.location.pathname).toBe('/notification/list');
  expect(screen.getByRole('heading', { name: 'お知らせ' })).toBeTruthy();
  expect(screen.queryByText(EMPTY)).toBeNull();
  expect(screen.queryByRole('alert')).toBeNull();
};

const views: Record<string, ViewAssertion<SessionWorld>> = {
  // The refresh first looks at the cookie: another tab may have refreshed already.
  checkingStored: async (world) => {
    stillLoading(world);
    await waitingFor(world, 'GET', '/api/auth/session');
    expect(asked(world, '/api/auth/refresh')).toBe(0);
  },
  requesting: async (world) => {
    stillLoading(world);
    await waitingFor(world, 'POST', '/api/auth/refresh');
  },
  refreshed: async (world, { event }) => {
    // The list the member asked for, with nothing else to show; the refresh was spent once at most.
    expect(await screen.findByText(EMPTY)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(world.router.state.location.pathname).toBe('/notification/list');
    expect(asked(world, '/api/auth/refresh')).toBe(
      event!.type === 'xstate.done.actor.requestTokens' ? 1 : 0,
    );
    expect(asked(world, '/api/auth/signout')).toBe(0);
  },
  loggedOut: async (world) => {
    // The refresh was refused: signed out, and sent to the login.
    expect(await screen.findByRole('heading', { name: 'login page' })).toBeTruthy();
    expect(world.router.state.location.pathname).toBe('/login');
    await waitFor(() => expect(world.server.pending.some(SIGN_OUT_CALL)).toBe(true));
  },
  failed: async (world) => {
    // The refresh could not be made: the session stays, the list says it could not load.
    expect((await screen.findByRole('alert')).textContent).toBe(LOAD_ERROR);
    expect(world.router.state.location.pathname).toBe('/notification/list');
    expect(asked(world, '/api/auth/signout')).toBe(0);
  },
};

describeUiReplay('tokenRefresh', {
  machine: tokenRefreshMachine,
  input: tokenRefreshInput,
  events: tokenRefreshEvents,
  mount,
  executors,
  views,
  unmount: ({ server }) => server.restore(),
});
