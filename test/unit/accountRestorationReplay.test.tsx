/**
 * The account restoration's paths replayed in the UI: OPEN is the member opening the mailed
 * link's address (or coming back to it from the provider, with its assertion or its failure),
 * PASSWORD and SUBMIT and RETRY the screen's field and buttons, and each call's outcome the
 * held server's answer to the call the screen made. Every state is checked by what the member
 * sees and what each call carried.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { formatTokyoInstantDate } from '../../src/components/ui/calendarDate';
import {
  accountRestorationMachine,
  type AccountRestorationEvent,
} from '../../src/machines/accountRestoration';
import { Component as AccountRestorationScreen } from '../../src/screens/accountRestoration/AccountRestorationScreen';
import {
  accountRestorationEvents,
  ASSERTION,
  LINKS,
  PASSWORD,
  RESTORED,
  serializeRestoration,
  TOKEN,
} from '../model/accountRestorationEvents';
import { request, type HeldRequest } from './replay/heldServer';
import {
  placeholder,
  renderWithSession,
  SESSION_READ,
  type SessionWorld,
} from './replay/sessionWorld';
import { describeUiReplay, type Executor, type ViewAssertion } from './replay/uiReplay';
import { translated } from './shellProviders';

type Call = 'proveLink' | 'readLink' | 'restore';
type EventType = AccountRestorationEvent['type'] | `xstate.${'done' | 'error'}.actor.${Call}`;

/** What each call of the chart is on the wire; none carries a bearer (no session exists). */
const CALLS = {
  proveLink: request('POST', '/v1/account_restoration/proof'),
  readLink: request('POST', '/v1/account_restoration/link'),
  restore: request('POST', '/v1/account_restoration'),
} satisfies Record<Call, unknown>;

type Opened = Extract<AccountRestorationEvent, { type: 'OPEN' }>;
type LinkKind = keyof typeof LINKS;

interface World extends SessionWorld {
  opened: Opened | null;
  /** The kind of link the screen was last answered. */
  link: LinkKind | null;
  /** The password typed into the field. */
  typed: string;
}

/** The address the member opens: the mailed link, or the provider's way back to it. */
function addressOf(opened: Opened): string {
  if (opened.token === '') return '/restore-account';
  const query = new URLSearchParams({ token: opened.token });
  if (opened.assertion !== null) query.set('assertion', opened.assertion);
  if (opened.proofFailed) query.set('proof', 'failed');
  return `/restore-account?${query.toString()}`;
}

const kindOf = (output: unknown): LinkKind =>
  (Object.keys(LINKS) as LinkKind[]).find((kind) => LINKS[kind] === output)!;

/** The one call of `call` waiting, with what it must carry. */
async function waiting(world: World, call: Call): Promise<HeldRequest> {
  let found: HeldRequest | undefined;
  await waitFor(() => {
    found = world.server.pending.find(CALLS[call]);
    expect(found, `${call} waits`).toBeDefined();
  });
  expect(found!.bearer).toBeUndefined();
  if (call === 'proveLink') expect(found!.body).toEqual({ token: TOKEN, assertion: ASSERTION });
  if (call === 'readLink') expect(found!.body).toEqual({ token: TOKEN });
  if (call === 'restore')
    expect(found!.body).toEqual(
      world.link === 'password' ? { token: TOKEN, password: PASSWORD } : { token: TOKEN },
    );
  return found!;
}

/** The server's answer to the call an actor made: a refusal carries its code. */
const answer =
  (call: Call): Executor<World> =>
  async (world, event) => {
    await waiting(world, call);
    if (event.type.startsWith('xstate.done.')) {
      const output = (event as unknown as { output: unknown }).output;
      if (call !== 'restore') world.link = kindOf(output);
      await world.server.answer(CALLS[call], { status: 200, body: output });
      return;
    }
    const code = (event as unknown as { error: { code?: string } | null }).error?.code;
    await world.server.answer(
      CALLS[call],
      code === undefined
        ? { status: 503, body: {} }
        : code === 'password_incorrect'
          ? { status: 400, body: { errors: [{ field: 'password', code }] } }
          : { status: code === 'restoration_identity_mismatch' ? 403 : 400, body: { code } },
    );
  };

const passwordField = () => screen.queryByLabelText(translated('restore-password'));
const submitButton = () =>
  screen.queryByRole('button', { name: translated('restore-submit') }) ??
  screen.queryByRole('button', { name: translated('restore-submitting') });

const executors = {
  OPEN: async (world, event) => {
    world.opened = event as unknown as Opened;
    await world.router.navigate(addressOf(world.opened));
  },
  PASSWORD: async (world) => {
    const field = passwordField();
    // Only a link that asks for the password has the field.
    if (world.link !== 'password') return expect(field).toBeNull();
    await world.user.clear(field!);
    await world.user.type(field!, PASSWORD);
    world.typed = PASSWORD;
  },
  SUBMIT: async (world) => {
    // A link only the provider can prove has nothing to send yet.
    if (world.link === 'provider') return expect(submitButton()).toBeNull();
    await world.user.click(submitButton()!);
  },
  RETRY: async (world) => {
    await world.user.click(screen.getByRole('button', { name: translated('restore-retry') }));
  },
  'xstate.done.actor.proveLink': answer('proveLink'),
  'xstate.error.actor.proveLink': answer('proveLink'),
  'xstate.done.actor.readLink': answer('readLink'),
  'xstate.error.actor.readLink': answer('readLink'),
  'xstate.done.actor.restore': answer('restore'),
  'xstate.error.actor.restore': answer('restore'),
} satisfies Record<EventType, Executor<World>>;

/** The link is being read or proven: the member is told so, and nothing can be typed. */
const reading =
  (call: Call): ViewAssertion<World> =>
  async (world) => {
    await waiting(world, call);
    screen.getByText(translated('restore-checking'));
    expect(passwordField()).toBeNull();
    // The assertion has left the address by now.
    expect(world.router.state.location.search).toBe(`?token=${TOKEN}`);
  };

/** The error the last step's refusal carries, if any. */
const codeOf = (event: unknown) => (event as { error?: { code?: string } | null }).error?.code;

const views: Record<string, ViewAssertion<World>> = {
  opening: async (world) => {
    await screen.findByRole('heading', { name: 'start page' });
    expect(world.server.asked.filter(({ path }) => path.startsWith('/v1/'))).toEqual([]);
  },
  proving: reading('proveLink'),
  checking: async (world, { event }) => {
    await waiting(world, 'readLink');
    screen.getByText(translated('restore-checking'));
    if (world.opened!.proofFailed || event?.type === 'xstate.error.actor.proveLink')
      expect(world.router.state.location.search).not.toContain('assertion');
  },
  unreachable: async () => {
    await screen.findByRole('button', { name: translated('restore-retry') });
    expect(screen.getByRole('alert').textContent).toBe(translated('restore-error-failed'));
    expect(passwordField()).toBeNull();
    expect(submitButton()).toBeNull();
  },
  ready: async (world, { event, path }) => {
    await screen.findByText(translated('restore-what'));
    const kind = world.link!;
    if (kind === 'proven') {
      screen.getByText(translated('restore-proven'));
      expect(passwordField()).toBeNull();
    } else if (kind === 'password') {
      screen.getByText(translated('restore-lead'));
      expect((passwordField() as HTMLInputElement).value).toBe(world.typed);
      screen.getByText(translated('restore-lead-either', { provider: 'LINE' }));
    } else {
      screen.getByText(translated('restore-lead-provider', { provider: 'LINE' }));
      expect(submitButton()).toBeNull();
    }
    if (kind !== 'proven')
      expect(
        screen
          .getByRole('link', { name: translated('restore-with-provider', { provider: 'LINE' }) })
          .getAttribute('href'),
      ).toBe(`/api/auth/restore/line?token=${TOKEN}`);
    // Why the provider's proof did not hold, until the link is proven.
    const proofFailed = path.find((step) => step.type === 'xstate.error.actor.proveLink');
    if (kind !== 'proven' && proofFailed)
      screen.getByText(
        translated(
          codeOf(proofFailed) === 'restoration_identity_mismatch'
            ? 'restore-error-restoration_identity_mismatch'
            : 'restore-error-proof_failed',
        ),
      );
    if (kind !== 'proven' && world.opened!.proofFailed)
      screen.getByText(translated('restore-error-proof_failed'));
    if (event?.type === 'SUBMIT' && kind === 'password' && world.typed === '')
      await screen.findByText(translated('validation-required'));
    if (event?.type === 'xstate.error.actor.restore') {
      if (codeOf(event) === 'password_incorrect' && kind === 'password')
        await screen.findByText(translated('restore-error-password_incorrect'));
      else
        expect((await screen.findByRole('alert')).textContent).toBe(
          translated('restore-error-failed'),
        );
      expect((submitButton() as HTMLButtonElement).disabled).toBe(false);
    }
  },
  restoring: async (world) => {
    await waiting(world, 'restore');
    const button = await screen.findByRole('button', { name: translated('restore-submitting') });
    expect((button as HTMLButtonElement).disabled).toBe(true);
  },
  refused: async (world, { event }) => {
    const code = event?.type === 'OPEN' ? 'restoration_link_invalid' : codeOf(event)!;
    expect((await screen.findByRole('alert')).textContent).toBe(
      translated(`restore-error-${code}`),
    );
    expect(passwordField()).toBeNull();
    expect(submitButton()).toBeNull();
    expect(screen.queryByRole('link', { name: translated('restore-to-login') }) !== null).toBe(
      code === 'nothing_to_restore',
    );
    if (event?.type === 'OPEN')
      expect(world.server.asked.filter(({ path }) => path.startsWith('/v1/'))).toEqual([]);
  },
  restored: async () => {
    await screen.findByRole('heading', { name: translated('restore-done-title') });
    screen.getByText(translated('restore-stopped', { count: '1' }));
    screen.getByText(
      translated('restore-delivered-letter', {
        title: 'ありがとう',
        recipients: '山田 花子',
        date: formatTokyoInstantDate(new Date('2026-11-10T03:05:00.000Z')),
      }),
    );
    screen.getByText(
      translated('restore-delivered-notified', {
        names: `山田 花子${translated('restore-list-separator')}佐藤 次郎`,
      }),
    );
    expect(RESTORED.lettersStopped).toBe(1);
  },
};

describeUiReplay('accountRestoration', {
  machine: accountRestorationMachine,
  events: accountRestorationEvents,
  serializeState: serializeRestoration as never,
  executors,
  views,
  mount: async () => {
    const world = renderWithSession(
      [
        { path: '/', Component: placeholder('start page') },
        { path: '/restore-account', Component: AccountRestorationScreen },
        { path: '/login', Component: placeholder('login page') },
      ],
      '/',
    );
    // A visitor: no session, and none is asked for by the restoration.
    world.server.always(SESSION_READ, { status: 200, body: {} });
    return { ...world, opened: null, link: null, typed: '' };
  },
  unmount: async (world) => {
    cleanup();
    await world.server.restore();
  },
});
