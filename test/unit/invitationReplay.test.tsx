/**
 * The invitation paths replayed in the UI: LINK is the visitor opening the shared link's
 * address, LOGGED_IN the session becoming the invitee's (its first read, or a sign-in in
 * another tab seen when this one comes back into view), REGISTER and SIGN_IN the invitation
 * screen's buttons, and each call's outcome the held server's answer to the call the screen
 * made. Every state is checked by what the visitor sees and what each call carried.
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { AuthSession } from '../../contract/sessionLayer';
import {
  invitationMachine,
  type InvitationEvent,
  type SharedLink,
} from '../../src/machines/invitation';
import { Component as InvitationScreen } from '../../src/screens/memory/InvitationScreen';
import { memoryPath } from '../../src/screens/memory/memorialPageNames';
import { Component as RegisterTopScreen } from '../../src/screens/registerTop/RegisterTopScreen';
import { useSlice } from '../../src/services/clientState/clientState';
import { PERSIST_ROOT_KEY } from '../../src/services/persistence/clientStorage';
import { invitationEvents } from '../model/flowEvents';
import { request, type HeldRequest } from './replay/heldServer';
import {
  placeholder,
  renderWithSession,
  SESSION_READ,
  wireSession,
  type SessionWorld,
} from './replay/sessionWorld';
import { describeUiReplay, type Executor, type ViewAssertion } from './replay/uiReplay';
import { translated } from './shellProviders';

type Call =
  | 'validateShareToken'
  | 'connectToInvitingUser'
  | 'resolveMemorialPage'
  | 'addMemorialPageAdmin'
  | 'expireShareToken';
type EventType = InvitationEvent['type'] | `xstate.${'done' | 'error'}.actor.${Call}`;

const invitee: AuthSession = {
  user: { id: 'invitee', username: 'hanako', memorialPageId: 'm-invitee', iconUrl: null },
  accessToken: 'access-invitee',
  expires: '2099-01-01T00:00:00.000Z',
};
const INVITERS_PAGE = 'inviters-page';

/** What each call of the chart is on the wire; every invitation call carries the link's pair. */
const CALLS = {
  validateShareToken: request('POST', '/v1/share_token/validate_share_token'),
  connectToInvitingUser: request('POST', '/v1/connection/create_connection_to_inviting_user'),
  resolveMemorialPage: request(
    'POST',
    '/v1/memorial_page/get_memorial_page_id_from_inviting_user_id',
  ),
  addMemorialPageAdmin: request(
    'POST',
    `/v1/memorial_page/add_memorial_page_admin/${INVITERS_PAGE}/${invitee.user.id}`,
  ),
  expireShareToken: request('PATCH', '/v1/share_token/expire_share_token'),
} satisfies Record<Call, unknown>;
const credential = { token: 'share-token', inviting_user_id: 'inviter' };

interface World extends SessionWorld {
  /** The link the chart holds (the last one it took), as the model has it. */
  taken: SharedLink | null;
  /** Whether the screen's own read of the link's page (cached per link) has been answered. */
  pageRead: boolean;
}

/** The client state the pages after the invitation go by: where a sign-in returns, the kept link. */
function KeptState() {
  const nav = useSlice('nav');
  const kept = useSlice('invitation');
  return (
    <p>
      return to: {nav.postLoginRedirectUrl ?? 'none'}; kept link: {kept.shareToken ?? 'none'}
    </p>
  );
}

const onInvitation = (world: World) =>
  world.router.state.location.pathname === '/memory/invitation';
const keptState = () => screen.getByText(/^return to: /).textContent;
const loading = () => screen.getByText(translated('route-loading'));

/** The states whose LINK the chart takes (elsewhere a new link is ignored). */
const TAKES_LINK = ['absent', 'accepted', 'invalid', 'handedToPetAdmin'];

const complete = (link: SharedLink) => Boolean(link.shareToken && link.invitingUserId);

/** The shared link's address, as the inviter's share sheet builds it. */
function addressOf(link: SharedLink): string {
  const query = new URLSearchParams();
  if (link.shareToken !== null) query.set('shareToken', link.shareToken);
  if (link.invitingUserId !== null) query.set('invitingUserId', link.invitingUserId);
  query.set('setAdmin', String(link.setAdmin));
  if (link.pet) query.set('pet', 'true');
  return `/memory/invitation?${query.toString()}`;
}

/** The one call of `call` waiting, with the pair of the link or the ids of the page's admin. */
async function waiting(world: World, call: Call): Promise<HeldRequest> {
  let found: HeldRequest | undefined;
  await waitFor(() => {
    found = world.server.pending.find(CALLS[call]);
    expect(found, `${call} waits`).toBeDefined();
  });
  if (call === 'addMemorialPageAdmin') expect(found!.body).toBeNull();
  else expect(found!.body).toEqual(credential);
  // Calls after the sign-in carry the invitee's token, the validation none (a visitor's).
  if (call !== 'validateShareToken') expect(found!.bearer).toBe(invitee.accessToken);
  return found!;
}

/** The server's answer to the call an actor made. */
const outcome =
  (call: Call, status: number, body: unknown = {}): Executor<World> =>
  async (world) => {
    await waiting(world, call);
    await world.server.answer(CALLS[call], { status, body });
  };

/** The session's first read answers; later, a sign-in in another tab, seen on coming back. */
async function sessionBecomes(world: World, session: AuthSession | null) {
  // Coming back into view refetches once the session has settled from its last answer.
  await waitFor(() => {
    if (!world.server.pending.some(SESSION_READ))
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(world.server.pending.some(SESSION_READ)).toBe(true);
  });
  await world.server.answer(SESSION_READ, { status: 200, body: wireSession(session) });
}

/** Pressing one of the invitation's buttons, or checking that none is there to press. */
const press =
  (name: string): Executor<World> =>
  async (world, _event, before) => {
    const button = translated(name);
    if (before.states.includes('awaitingLogin') && onInvitation(world))
      await world.user.click(await screen.findByRole('button', { name: button }));
    else expect(screen.queryByRole('button', { name: button })).toBeNull();
  };

const executors = {
  LINK: async (world, event, before) => {
    const link = event as unknown as SharedLink;
    // The visitor opened the link before the session was known: it was nobody's.
    if (world.server.pending.some(SESSION_READ)) await sessionBecomes(world, null);
    await act(() => world.router.navigate(addressOf(link)));
    if (!TAKES_LINK.some((state) => before.states.includes(state))) return;
    world.taken = complete(link) ? link : null;
    if (complete(link) && !world.pageRead) {
      // The screen reads the link's page while the token holds, for the way on once accepted.
      await waitFor(() => expect(world.server.pending.some(CALLS.resolveMemorialPage)).toBe(true));
      await world.server.answer(CALLS.resolveMemorialPage, { status: 200, body: INVITERS_PAGE });
      world.pageRead = true;
    }
  },
  LOGGED_IN: (world) => sessionBecomes(world, invitee),
  REGISTER: press('invitation-register'),
  SIGN_IN: press('invitation-login'),
  'xstate.done.actor.validateShareToken': async (world, event) => {
    const { isValid } = (event as unknown as { output: { isValid: boolean } }).output;
    await waiting(world, 'validateShareToken');
    await world.server.answer(CALLS.validateShareToken, {
      status: 200,
      body: { is_valid: isValid },
    });
  },
  // Any failure of the validation is an invalid link: the screen ends as the chart.
  'xstate.error.actor.validateShareToken': outcome('validateShareToken', 503),
  'xstate.done.actor.connectToInvitingUser': outcome('connectToInvitingUser', 200),
  'xstate.error.actor.connectToInvitingUser': outcome('connectToInvitingUser', 404),
  'xstate.done.actor.resolveMemorialPage': outcome('resolveMemorialPage', 200, INVITERS_PAGE),
  'xstate.error.actor.resolveMemorialPage': outcome('resolveMemorialPage', 404),
  'xstate.done.actor.addMemorialPageAdmin': outcome('addMemorialPageAdmin', 200),
  'xstate.error.actor.addMemorialPageAdmin': outcome('addMemorialPageAdmin', 403),
  'xstate.done.actor.expireShareToken': outcome('expireShareToken', 200),
  'xstate.error.actor.expireShareToken': outcome('expireShareToken', 404),
} satisfies Record<EventType, Executor<World>>;

/** The chart waits on `call`: the screen shows it is loading while the call is out. */
const callOut =
  (call: Call): ViewAssertion<World> =>
  async (world) => {
    expect(onInvitation(world)).toBe(true);
    await waiting(world, call);
    loading();
  };

const views: Record<string, ViewAssertion<World>> = {
  // No link opened yet: the visitor is elsewhere and nothing of an invitation was asked.
  absent: (world) => {
    screen.getByRole('heading', { name: 'start page' });
    expect(world.server.asked.filter(({ path }) => path.startsWith('/v1/'))).toEqual([]);
  },
  validating: callOut('validateShareToken'),
  awaitingLogin: async (world, { event }) => {
    const taken = world.taken!;
    if (event?.type === 'SIGN_IN') {
      // The login page, coming back to the invitation afterwards; the link is kept meanwhile.
      await screen.findByRole('heading', { name: 'login page' });
      expect(keptState()).toBe('return to: /memory/invitation; kept link: share-token');
      return;
    }
    if (event?.type === 'REGISTER') {
      await screen.findByText(translated('register-lead'));
      expect(world.router.state.location.search).toBe('');
      expect(keptState()).toBe('return to: /memory/invitation; kept link: share-token');
      return;
    }
    await screen.findByText(
      translated(taken.setAdmin ? 'invitation-lead-admin' : 'invitation-lead'),
    );
    screen.getByText(
      translated(taken.pet && taken.setAdmin ? 'invitation-sign-in-pet' : 'invitation-sign-in'),
    );
    screen.getByRole('button', { name: translated('invitation-register') });
    screen.getByRole('button', { name: translated('invitation-login') });
  },
  handedToPetAdmin: async () => {
    // The registration in pet mode; the pet page's admin link went to the pet-admin setting.
    await screen.findByText(translated('register-lead-pet'));
    expect(keptState()).toBe('return to: none; kept link: none');
    const stored = JSON.parse(localStorage.getItem(PERSIST_ROOT_KEY) ?? '{}') as {
      memorialAdmin?: { targetMemorialPageEncodedId: string; completed: boolean };
    };
    expect(stored.memorialAdmin).toMatchObject({
      targetMemorialPageEncodedId: 'share-token',
      completed: false,
    });
  },
  connecting: callOut('connectToInvitingUser'),
  resolvingPage: callOut('resolveMemorialPage'),
  addingAdmin: callOut('addMemorialPageAdmin'),
  expiring: callOut('expireShareToken'),
  accepted: async (world) => {
    const taken = world.taken!;
    await screen.findByText(
      translated(taken.setAdmin ? 'invitation-accepted-admin' : 'invitation-accepted'),
    );
    expect(
      screen.getByRole('link', { name: translated('invitation-open-page') }).getAttribute('href'),
    ).toBe(memoryPath(INVITERS_PAGE));
    // Accepted: connected and the token used up, an admin of the inviter's page on the way.
    const asked = (call: Call) => world.server.asked.some(CALLS[call]);
    expect(asked('connectToInvitingUser')).toBe(true);
    expect(asked('expireShareToken')).toBe(true);
    if (taken.setAdmin) expect(asked('addMemorialPageAdmin')).toBe(true);
  },
  invalid: async () => {
    expect((await screen.findByRole('alert')).textContent).toBe(
      translated('memorial-error-invalid-invitation'),
    );
  },
};

describeUiReplay('invitation', {
  machine: invitationMachine,
  input: { userId: null },
  events: invitationEvents,
  executors,
  views,
  // Registering and signing in open their pages, off the invitation and its chart (a pet
  // page's admin link goes on to the pet-admin setting, which the chart hands it to).
  endsPath: (from, event, to) =>
    from.matches('awaitingLogin') &&
    to.matches('awaitingLogin') &&
    (event.type === 'REGISTER' || event.type === 'SIGN_IN'),
  mount: async () => {
    localStorage.clear();
    const world = renderWithSession(
      [
        { path: '/', Component: placeholder('start page') },
        { path: '/memory/invitation', Component: InvitationScreen },
        {
          path: '/login',
          element: (
            <>
              <h1>login page</h1>
              <KeptState />
            </>
          ),
        },
        {
          path: '/register-top',
          element: (
            <>
              <RegisterTopScreen />
              <KeptState />
            </>
          ),
        },
      ],
      '/',
    );
    await waitFor(() => expect(world.server.pending.some(SESSION_READ)).toBe(true));
    return { ...world, taken: null, pageRead: false };
  },
  unmount: async (world) => {
    cleanup();
    await world.server.restore();
    localStorage.clear();
  },
});
