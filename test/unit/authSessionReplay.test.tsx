/**
 * The auth session's generated paths replayed under the app's real SessionProvider: the
 * member signs in on the login screen, changes the password on the my page (UPDATE), signs
 * out on the sign-out screen, comes back to the tab or hears another tab (REFETCH), and a
 * call of the frame is refused as expired (REFRESH); every actor outcome is the session
 * layer's answer to the call that actor made. Every state is checked by the header the member
 * sees (no menus while loading, the member's or the visitor's) and by what the browser is
 * waiting on.
 *
 * The paths are generated from the model's own events, offered only where a member or the
 * server can cause them (decision 271): the model test walks the others on the bare machine.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { AnyEventObject, SnapshotFrom } from 'xstate';
import { expect } from 'vitest';
import { Outlet } from 'react-router';
import { authSessionMachine } from '../../src/machines/authSession';
import type { AuthSession } from '../../contract/sessionLayer';
import { Header } from '../../src/components/shell/Header';
import { MenuNavigationProvider } from '../../src/components/shell/useMenuNavigation';
import { PasswordChangeForm } from '../../src/screens/mypage/CredentialForms';
import { Component as LoginScreen } from '../../src/screens/login/LoginScreen';
import { Component as LogoutScreen } from '../../src/screens/login/LogoutScreen';
import { fetchUnreadCount } from '../../src/services/frame/frameReads';
import { useSession } from '../../src/services/session/useSession';
import { authSessionEvents, authSessionSerialize } from '../model/sessionFlowEvents';
import { request, type HeldRequest } from './replay/heldServer';
import {
  placeholder,
  REFRESH_CALL,
  renderWithSession,
  SESSION_READ,
  SESSION_WRITE,
  SIGN_OUT_CALL,
  wireSession,
  type SessionWorld,
} from './replay/sessionWorld';
import { describeUiReplay, type Executor, type ViewAssertion } from './replay/uiReplay';

type Snapshot = SnapshotFrom<typeof authSessionMachine>;
type EventType =
  | `xstate.${'done' | 'error'}.actor.${'fetchSession' | 'refetchSession' | 'updateSession' | 'signOut' | 'tokenRefresh'}`
  | 'xstate.error.actor.watchTabs'
  | 'REFETCH'
  | 'SIGNED_IN'
  | 'UPDATE'
  | 'REFRESH'
  | 'SIGN_OUT';

interface AuthWorld extends SessionWorld {
  /** The session the session layer last answered: what its cookie holds. */
  session: AuthSession | null;
  /** Frame reads refused as expired that wait for the refresh's outcome to be retried. */
  waitingReads: number;
  /**
   * A sign-out the server refused is owed: the next read of the session sends it again first
   * (decision 291), until the server takes it or a sign-in replaces the cookie.
   */
  owed: boolean;
}

/** The token the password change answers: the one the update carries to the session layer. */
const CHANGED_TOKEN = 'access-after-password-change';
const UNREAD_COUNT = request('GET', '/v1/notification/user_notifications/unread/count');
const PASSWORD_CHANGE = request('POST', '/v1/mypage/password');
const CREDENTIALS = request('POST', '/api/auth/callback/credentials');
/** The session layer's calls that the machine's actors make. */
const SESSION_LAYER = [SESSION_READ, SESSION_WRITE, REFRESH_CALL, SIGN_OUT_CALL];

/**
 * What a member or the server can cause in a state. Out of reach, and so left to the model
 * test (decision 271): a 401's REFRESH while the session loads or a refresh is out (the HTTP
 * client holds every call until the session is known and while it refreshes); a second
 * UPDATE while one waits or runs (the password form is busy until its update settles), or
 * one while a refresh is out (the password change waits behind it and goes out only if it
 * succeeds, where the machine would still make a queued update);
 * signing out without the sign-out screen's button (shown to a member only); the tab watcher
 * failing after it started (it fails only as it starts) and the refresh actor failing (it
 * ends in one of its final states whatever the server answers). SIGNED_IN is done on the
 * idle login screen only: the machine ignores it elsewhere. An UPDATE asked for while the
 * session loads is sent once the HTTP client lets the password change out.
 */
function memberCanCause(snapshot: Snapshot, event: AnyEventObject): boolean {
  const refreshOut =
    snapshot.matches({ authenticated: 'refreshing' }) || snapshot.context.refreshRequested;
  const updateWaits =
    snapshot.context.pendingUpdates.length > 0 || snapshot.matches({ authenticated: 'updating' });
  switch (event.type) {
    case 'xstate.error.actor.watchTabs':
    case 'xstate.error.actor.tokenRefresh':
      return false;
    case 'UPDATE':
      return (
        (snapshot.matches('loading') || snapshot.matches('authenticated')) &&
        !updateWaits &&
        !refreshOut
      );
    case 'REFRESH':
      return !snapshot.matches('loading') && !refreshOut;
    case 'SIGN_OUT':
      return snapshot.matches('authenticated');
    case 'SIGNED_IN':
      return snapshot.matches({ unauthenticated: 'idle' });
    default:
      return true;
  }
}

const events = ((snapshot: Snapshot) =>
  (authSessionEvents as AnyEventObject[]).filter((event) =>
    memberCanCause(snapshot, event),
  )) as never;

/** The signed-in member's header, the pages of the gestures, and the landing after sign-in. */
function SessionHeader() {
  const session = useSession();
  return (
    <MenuNavigationProvider session={session}>
      <Header
        session={session}
        unreadCount={0}
        inflow={false}
        burgerOpen={false}
        onToggleBurger={() => undefined}
      />
      <Outlet />
    </MenuNavigationProvider>
  );
}

function mount(): AuthWorld {
  // The persisted user of an earlier path would count as this browser's stored user.
  localStorage.clear();
  const world = renderWithSession(
    [
      {
        element: <SessionHeader />,
        children: [
          { path: '/logout', Component: LogoutScreen },
          { path: '/login', Component: LoginScreen },
          { path: '/mypage', element: <PasswordChangeForm /> },
          { path: '/dashboard', Component: placeholder('dashboard') },
        ],
      },
    ],
    '/logout',
  );
  const { server } = world;
  // Not flow events: the header's avatar mark, the login screen's providers, and the password
  // change's own call, which the server answers with a new token for a member and refuses
  // without one.
  server.always(request('GET', /^\/v1\/identity_verification\/certificated\//), {
    status: 200,
    body: { certificated: false },
  });
  server.always(request('GET', '/api/auth/providers'), { status: 200, body: {} });
  server.always((held) => PASSWORD_CHANGE(held) && (held as HeldRequest).bearer !== undefined, {
    status: 200,
    body: { access_token: CHANGED_TOKEN },
  });
  server.always((held) => PASSWORD_CHANGE(held) && (held as HeldRequest).bearer === undefined, {
    status: 401,
    body: { detail: 'not signed in' },
  });
  return { ...world, session: null, waitingReads: 0, owed: false };
}

const outputOf = (event: AnyEventObject) => (event as { output?: unknown }).output;
const sessionBody = (session: AuthSession | null) => (session ? wireSession(session) : null);

async function answerSession(world: AuthWorld, event: AnyEventObject, matches = SESSION_READ) {
  if (matches === SESSION_READ && world.owed) {
    // The owed sign-out goes first, and the server takes it this time.
    await world.server.answer(SIGN_OUT_CALL, {
      status: 200,
      body: { url: 'http://localhost/login' },
    });
    world.owed = false;
  }
  if (event.type.startsWith('xstate.error.')) {
    await world.server.answer(matches, { status: 503, body: { code: 'unavailable' } });
    return;
  }
  const session = outputOf(event) as AuthSession | null;
  await world.server.answer(matches, { status: 200, body: sessionBody(session) });
  world.session = session;
}

async function goTo(world: AuthWorld, path: string) {
  if (world.router.state.location.pathname !== path) await world.router.navigate(path);
}

/**
 * The calls of the actors an event stops (a refetch, an update or a refresh left for the
 * sign-out, a refetch left for the refresh): their answers reach nobody, so they end here and
 * the next outcome answers the call of the actor that runs.
 */
async function endStoppedCalls(world: AuthWorld, before: HeldRequest[]) {
  for (const held of before) {
    const at = world.server.pending.indexOf(held);
    if (at < 0) continue;
    world.server.pending.splice(at, 1);
    held.respond(503, { code: 'unavailable' });
  }
}

const sessionLayerPending = (world: AuthWorld) =>
  world.server.pending.filter((held) => SESSION_LAYER.some((matches) => matches(held)));

const executors = {
  'xstate.done.actor.fetchSession': (world, event) => answerSession(world, event),
  'xstate.error.actor.fetchSession': (world, event) => answerSession(world, event),
  'xstate.done.actor.refetchSession': (world, event) => answerSession(world, event),
  'xstate.error.actor.refetchSession': (world, event) => answerSession(world, event),
  'xstate.done.actor.updateSession': (world, event) => answerSession(world, event, SESSION_WRITE),
  'xstate.error.actor.updateSession': (world, event) => answerSession(world, event, SESSION_WRITE),
  'xstate.done.actor.signOut': async (world) => {
    await world.server.answer(SIGN_OUT_CALL, {
      status: 200,
      body: { url: 'http://localhost/login' },
    });
    world.owed = false;
  },
  'xstate.error.actor.signOut': async (world) => {
    await world.server.answer(SIGN_OUT_CALL, { status: 503, body: { code: 'unavailable' } });
    world.owed = true;
  },
  'xstate.done.actor.tokenRefresh': async (world, event) => {
    const output = outputOf(event) as { outcome: string; tokens?: { accessToken: string } };
    // The cookie still holds the token the refused call carried: no other tab refreshed.
    await world.server.answer(SESSION_READ, { status: 200, body: sessionBody(world.session) });
    if (output.outcome === 'refreshed') {
      const refreshed = { ...world.session!, ...output.tokens! };
      await world.server.answer(REFRESH_CALL, { status: 200, body: wireSession(refreshed) });
      world.session = refreshed;
      // Every read that waited for the refresh is sent again with the new token.
      for (; world.waitingReads > 0; world.waitingReads -= 1) {
        const retried = await world.server.answer(UNREAD_COUNT, { status: 200, body: 0 });
        expect(retried.bearer).toBe(refreshed.accessToken);
      }
      return;
    }
    const status = output.outcome === 'loggedOut' ? 401 : 503;
    await world.server.answer(REFRESH_CALL, {
      status,
      body: { code: status === 401 ? 'invalid_refresh_token' : 'unavailable' },
    });
    world.waitingReads = 0;
    if (status === 401) world.session = null;
  },
  // Out of reach (see memberCanCause): never offered to the UI.
  'xstate.error.actor.tokenRefresh': async () => {
    throw new Error('the refresh actor ends in a final state whatever the server answers');
  },
  'xstate.error.actor.watchTabs': async () => {
    throw new Error('the tab watcher fails only as it starts');
  },
  REFETCH: async (_world, _event, before) => {
    // Signed out here: another tab signed in and says so. Otherwise the member comes back.
    if (before.states.some((state) => state.startsWith('unauthenticated'))) {
      const otherTab = new BroadcastChannel('shinobu-session');
      otherTab.postMessage({ from: 'another tab' });
      otherTab.close();
    } else {
      document.dispatchEvent(new Event('visibilitychange'));
    }
  },
  SIGNED_IN: async (world) => {
    await goTo(world, '/login');
    await world.user.type(await screen.findByLabelText('メールアドレス'), 'yamada@example.jp');
    await world.user.type(screen.getByLabelText('パスワード'), 'a quiet morning by the sea');
    await world.user.click(screen.getByRole('button', { name: 'ログインする' }));
    await world.server.answer(CREDENTIALS, {
      status: 200,
      body: { url: 'http://localhost/dashboard' },
    });
    // The new session cookie replaces the one the owed sign-out was for.
    world.owed = false;
  },
  UPDATE: async (world) => {
    await goTo(world, '/mypage');
    await world.user.type(
      await screen.findByLabelText('現在のパスワード'),
      'a quiet morning by the sea',
    );
    await world.user.type(screen.getByLabelText('新しいパスワード'), 'a brand new passphrase');
    await world.user.type(
      screen.getByLabelText('新しいパスワード（確認）'),
      'a brand new passphrase',
    );
    await world.user.click(screen.getByRole('button', { name: 'パスワードを変更する' }));
  },
  REFRESH: async (world, _event, before) => {
    const stopped = before.states.includes('authenticated.refetching')
      ? sessionLayerPending(world)
      : [];
    // The header's unread count comes due and is refused: the token expired.
    fetchUnreadCount().catch(() => undefined);
    await world.server.answer(UNREAD_COUNT, { status: 401, body: { detail: 'token expired' } });
    if (before.states.some((state) => state.startsWith('authenticated'))) world.waitingReads += 1;
    await waitFor(() =>
      expect(
        stopped.length === 0 || sessionLayerPending(world).some((held) => !stopped.includes(held)),
      ).toBe(true),
    );
    await endStoppedCalls(world, stopped);
  },
  SIGN_OUT: async (world) => {
    const stopped = sessionLayerPending(world);
    await goTo(world, '/logout');
    await world.user.click(await screen.findByRole('button', { name: 'ログアウト' }));
    await waitFor(() => expect(world.server.pending.some(SIGN_OUT_CALL)).toBe(true));
    await endStoppedCalls(world, stopped);
    world.session = null;
    world.waitingReads = 0;
  },
} satisfies Record<EventType, Executor<AuthWorld>>;

const MENU = 'メインメニュー';

/**
 * The header as the member sees it: no menus while the session loads, then the member's or
 * the visitor's (the desktop menu, which jsdom's lack of layout leaves hidden to ARIA).
 */
async function headerShows(who: 'loading' | 'member' | 'visitor') {
  await waitFor(() => {
    const menu = screen.queryByRole('navigation', { name: MENU, hidden: true });
    if (who === 'loading') return expect(menu).toBeNull();
    expect(menu).not.toBeNull();
    const link = (name: string) => within(menu!).queryByRole('link', { name, hidden: true });
    expect(link('ログイン') === null).toBe(who === 'member');
    expect(link('ホーム') !== null).toBe(who === 'member');
  });
}

/** The session-layer call the running actor made, and no other, waits for its answer. */
async function waitingOn(world: AuthWorld, ...expected: string[]) {
  await waitFor(() =>
    expect(sessionLayerPending(world).map((held) => `${held.method} ${held.path}`)).toEqual(
      expected,
    ),
  );
}

const views: Record<string, ViewAssertion<AuthWorld>> = {
  loading: async (world) => {
    await headerShows('loading');
    await waitingOn(world, 'GET /api/auth/session');
    // Every product call waits for the session.
    expect(world.server.asked.filter((seen) => seen.path.startsWith('/v1/'))).toEqual([]);
  },
  'authenticated.idle': async (world) => {
    await headerShows('member');
    await waitingOn(world);
    // A member who was on /login is sent on once the login screen (a lazy chunk) sees them.
    await waitFor(() => expect(world.router.state.location.pathname).not.toBe('/login'));
  },
  'authenticated.refetching': async (world) => {
    await headerShows('member');
    await waitingOn(world, 'GET /api/auth/session');
  },
  'authenticated.updating': async (world) => {
    await headerShows('member');
    await waitingOn(world, 'POST /api/auth/session');
    // The token the password change answered goes into the session cookie.
    const posted = world.server.pending.find(SESSION_WRITE)!.body as {
      data: { accessToken?: string };
    };
    expect(posted.data.accessToken).toBe(CHANGED_TOKEN);
    expect(screen.queryByText(/パスワードを変更しました。/)).toBeNull();
  },
  'authenticated.refreshing': async (world) => {
    await headerShows('member');
    // The refresh first reads the cookie (another tab may have refreshed), then spends it.
    await waitFor(() =>
      expect([['GET /api/auth/session'], ['POST /api/auth/refresh']]).toContainEqual(
        sessionLayerPending(world).map((held) => `${held.method} ${held.path}`),
      ),
    );
  },
  'unauthenticated.idle': async (world) => {
    await headerShows('visitor');
    await waitingOn(world);
  },
  'unauthenticated.refetching': async (world) => {
    await headerShows('visitor');
    // An owed sign-out is sent again before the session is read.
    await waitingOn(world, world.owed ? 'POST /api/auth/signout' : 'GET /api/auth/session');
  },
  signingOut: async (world) => {
    // The tokens go at once: the header is the visitor's while the sign-out is being made.
    await headerShows('visitor');
    await waitingOn(world, 'POST /api/auth/signout');
  },
};

describeUiReplay('authSession', {
  machine: authSessionMachine,
  events,
  serializeState: authSessionSerialize,
  mount,
  executors,
  views,
  unmount: ({ server }) => server.restore(),
});
