/**
 * The registration paths replayed in the UI, every variant: START is a page load of the
 * registration URL in a browser that holds a pet page's admin link or none, ACTIVATE opening
 * the mail's link, EDIT the member filling one field, SUBMIT and BACK the form's buttons (a
 * button that is disabled or absent in a state is checked to be out of reach), and each
 * call's outcome the held server's answer to the call the screen made. Every state is
 * checked by what the member sees and what the calls carried.
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { AuthSession } from '../../contract/sessionLayer';
import {
  registrationMachine,
  type RegistrationEvent,
  type RegistrationField,
} from '../../src/machines/registration';
import { registrationRules } from '../../src/machines/registrationRules';
import { Component as ActivateScreen } from '../../src/screens/activate/ActivateScreen';
import { Component as RegisterTopScreen } from '../../src/screens/registerTop/RegisterTopScreen';
import { PERSIST_ROOT_KEY } from '../../src/services/persistence/clientStorage';
import {
  registrationEvents,
  registrationStarts,
  registrationStateKey,
  wireUser,
  validRegistrationForm,
  type RegistrationStart,
} from '../model/flowEvents';
import { request, type HeldRequest } from './replay/heldServer';
import {
  placeholder,
  renderWithSession,
  SESSION_READ,
  wireSession,
  type SessionWorld,
} from './replay/sessionWorld';
import {
  describeUiReplay,
  type Executor,
  type ViewAssertion,
  type ViewStep,
} from './replay/uiReplay';
import { translated } from './shellProviders';

type EventType =
  RegistrationEvent['type'] | `xstate.${'done' | 'error'}.actor.${'register' | 'activate'}`;

const newMember: AuthSession = {
  user: { id: 'hanako-1', username: 'hanako', memorialPageId: 'm-hanako', iconUrl: null },
  accessToken: 'access-hanako',
  expires: '2099-01-01T00:00:00.000Z',
};

/** The label each field has on the form. */
const LABELS: Record<Exclude<RegistrationField, 'sexCode' | 'userIconUrl'>, string> = {
  username: 'register-username',
  email: 'register-email',
  password: 'register-password',
  lastName: 'register-last-name',
  firstName: 'register-first-name',
  lastNameKana: 'register-last-name-kana',
  firstNameKana: 'register-first-name-kana',
  address: 'register-address',
  birthdate: 'register-birthdate',
};

const { password: _noPassword, ...wireUserWithoutPassword } = wireUser;
const { admin_pet_id: _noPetPage, ...wireUserWithoutPetPage } = wireUser;

/** The call each registration URL makes, and what it sends (the model's valid form). */
const REGISTER_CALLS: Record<
  Exclude<RegistrationStart, 'inflowWithoutId'>,
  { path: string; body: unknown }
> = {
  standard: { path: '/v1/user', body: wireUser },
  // Pet mode without a page in the URL takes the page of the link held in this browser.
  petLink: { path: '/v1/user', body: { ...wireUser, admin_pet_id: 'p-1' } },
  otherPet: { path: '/v1/user', body: { ...wireUser, admin_pet_id: 'p-9' } },
  // The inflow variant carries the partner's id instead of a pet page.
  inflowPet: {
    path: '/v1/user/create_inflow_user',
    body: { ...wireUserWithoutPetPage, inflow_id: 'partner-1' },
  },
  // The provider vouches for the person: no password is sent.
  external: {
    path: '/v1/user/create_user_with_external_provider',
    body: {
      user_request: wireUserWithoutPassword,
      provider_request: {
        provider_name: 'line',
        provider_user_id: 'U123',
        access_token: 'assertion',
        expired_date: null,
      },
    },
  },
};
const REGISTER = request(
  'POST',
  /^\/v1\/user(\/create_inflow_user|\/create_user_with_external_provider)?$/,
);
const ACTIVATION = request('POST', '/api/auth/callback/activation');

type World = SessionWorld;

/** Which registration URL the path opened. */
function startOf(path: ViewStep['path']): RegistrationStart {
  const start = path.find((event) => event.type === 'START') as unknown as { query: string };
  return (Object.keys(registrationStarts) as RegistrationStart[]).find(
    (name) => registrationStarts[name].query === start.query,
  )!;
}

/** The form as the path left it: the URL's prefill, then each field the member filled. */
function formOf(path: ViewStep['path']): Record<string, string> {
  const external = startOf(path) === 'external';
  const form: Record<string, string> = external
    ? { username: 'hanako', email: 'hanako@example.jp' }
    : {};
  for (const event of path)
    if (event.type === 'EDIT') form[event.field as string] = event.value as string;
  return form;
}

const ROUTES = [
  { path: '/', Component: placeholder('start page') },
  { path: '/register-top', Component: RegisterTopScreen },
  { path: '/activate', Component: ActivateScreen },
  { path: '/dashboard', Component: placeholder('dashboard') },
  { path: '/login', Component: placeholder('login page') },
];

/** A page load at `at` with a signed-out session and, if given, a pet page's link held here. */
async function load(at: string, pendingPetPageId: string | null): Promise<World> {
  localStorage.clear();
  if (pendingPetPageId)
    localStorage.setItem(
      PERSIST_ROOT_KEY,
      JSON.stringify({
        memorialAdmin: {
          targetMemorialPageEncodedId: pendingPetPageId,
          expiresAt: Date.now() + 60 * 60 * 1000,
          completed: false,
        },
      }),
    );
  const world = renderWithSession(ROUTES, at);
  await world.server.answer(SESSION_READ, { status: 200, body: wireSession(null) });
  return world;
}

/** What this browser keeps of the pet page's admin link. */
function petLinkKept(): { targetMemorialPageEncodedId: string | null; completed: boolean } | null {
  const stored = JSON.parse(localStorage.getItem(PERSIST_ROOT_KEY) ?? '{}') as {
    memorialAdmin?: { targetMemorialPageEncodedId: string | null; completed: boolean };
  };
  return stored.memorialAdmin ?? null;
}

const button = (name: string) => screen.queryByRole('button', { name: translated(name) });

/** A form button: pressed where it can be, else checked to be disabled or not there. */
const press =
  (name: string, where: string[]): Executor<World> =>
  async (world, _event, before) => {
    if (before.states.some((state) => where.includes(state)))
      await world.user.click(screen.getByRole('button', { name: translated(name) }));
    else if (before.states.includes('submitting')) {
      // While the registration is out, both buttons wait, disabled.
      expect(
        screen.getByRole('button', { name: translated('register-submitting') }),
      ).toHaveProperty('disabled', true);
      if (name === 'register-back') expect(button(name)).toHaveProperty('disabled', true);
    } else expect(button(name)).toBeNull();
  };

/** The register call waiting, and what it carries for the path's registration URL. */
async function registerCall(world: World, path: ViewStep['path']): Promise<HeldRequest> {
  let found: HeldRequest | undefined;
  await waitFor(() => {
    found = world.server.pending.find(REGISTER);
    expect(found, 'the registration waits').toBeDefined();
  });
  const expected = REGISTER_CALLS[startOf(path) as keyof typeof REGISTER_CALLS];
  expect(found!.path).toBe(expected.path);
  expect(found!.body).toEqual(expected.body);
  return found!;
}

const executors = {
  START: async (world, event) => {
    const { query, pendingPetPageId } = event as Extract<RegistrationEvent, { type: 'START' }>;
    cleanup();
    await world.server.restore();
    Object.assign(world, await load(`/register-top?${query}`, pendingPetPageId));
  },
  ACTIVATE: async (world, event) => {
    const { link } = event as Extract<RegistrationEvent, { type: 'ACTIVATE' }>;
    const query = new URLSearchParams({ token: link.token, email: link.email });
    await act(() => world.router.navigate(`/activate?${query.toString()}`));
  },
  EDIT: async ({ user }, event) => {
    const { field, value } = event as Extract<RegistrationEvent, { type: 'EDIT' }>;
    if (field === 'sexCode') {
      await user.click(screen.getByRole('radio', { name: translated(`register-sex-${value}`) }));
      return;
    }
    const control = screen.getByLabelText(translated(LABELS[field as keyof typeof LABELS]));
    if (field === 'address') await user.selectOptions(control, value);
    else if (field === 'birthdate') await user.type(control, value);
    else {
      await user.clear(control);
      await user.click(control);
      await user.paste(value);
    }
  },
  SUBMIT: async (world, event, before) => {
    if (before.states.includes('input'))
      await world.user.click(
        screen.getByRole('button', { name: translated('register-to-confirm') }),
      );
    else await press('register-submit', ['confirm', 'failed'])(world, event, before);
  },
  BACK: press('register-back', ['confirm', 'failed']),
  'xstate.done.actor.register': async (world) => {
    await world.server.answer(REGISTER, { status: 202, body: { detail: 'accepted' } });
  },
  'xstate.error.actor.register': async (world, event) => {
    // The failures of the model (a 422 naming a field or none, a server down), as the wire has them.
    const { response } = (
      event as unknown as { error: { response: { status: number; data: unknown } } }
    ).error;
    await world.server.answer(REGISTER, { status: response.status, body: response.data });
  },
  'xstate.done.actor.activate': async (world) => {
    await world.server.answer(ACTIVATION, { status: 200, body: { url: '/dashboard' } });
    // The activation signs the new member in: the session is read again.
    await world.server.answer(SESSION_READ, { status: 200, body: wireSession(newMember) });
  },
  'xstate.error.actor.activate': async (world) => {
    await world.server.answer(ACTIVATION, { status: 400, body: { code: 'activation_failed' } });
  },
} satisfies Record<EventType, Executor<World>>;

/** The lead of the input step for the path's registration URL. */
function leadOf(start: RegistrationStart): string {
  if (start === 'external')
    return translated('register-lead-external', { provider: translated('provider-line') });
  if (start === 'petLink' || start === 'inflowPet' || start === 'otherPet')
    return translated('register-lead-pet');
  return translated('register-lead');
}

const views: Record<string, ViewAssertion<World>> = {
  // Nothing opened yet: the member is elsewhere and nothing was sent.
  idle: (world) => {
    screen.getByRole('heading', { name: 'start page' });
    expect(world.server.asked.filter(({ path }) => path.startsWith('/v1/'))).toEqual([]);
  },
  input: async (_world, { path, event, from }) => {
    const start = startOf(path);
    await screen.findByRole('heading', { name: translated('register-title') });
    screen.getByText(leadOf(start));
    // Every field shows what the member gave it; an external sign-up asks no password.
    const form = formOf(path);
    for (const [field, label] of Object.entries(LABELS)) {
      if (field === 'password' && start === 'external') {
        expect(screen.queryByLabelText(translated(label))).toBeNull();
        continue;
      }
      expect((screen.getByLabelText(translated(label)) as HTMLInputElement).value, field).toBe(
        form[field] ?? '',
      );
    }
    if (form.sexCode)
      expect(
        screen.getByRole('radio', { name: translated(`register-sex-${form.sexCode}`) }),
      ).toHaveProperty('checked', true);
    const stayed = event?.type === 'SUBMIT' && from.includes('input');
    const rejected = event?.type === 'xstate.error.actor.register';
    if (stayed || rejected) screen.getByText(translated('register-invalid'));
    // The server's refusal names the field, shown at the field.
    if (rejected) screen.getByText(translated('validation-kana_hiragana_only'));
    // The form was refused as the URL left it (fields missing) or with a spoilt email.
    if (stayed && form.email === 'not-an-email')
      screen.getByText(translated('validation-email_invalid'));
    else if (stayed)
      expect(screen.getAllByText(translated('validation-required')).length).toBeGreaterThan(0);
  },
  confirm: async (_world, { path }) => {
    await screen.findByRole('heading', { name: translated('register-confirm-title') });
    screen.getByText(translated('register-confirm-lead'));
    // What will be sent, as the member gave it.
    screen.getByText(validRegistrationForm.username);
    screen.getByText(validRegistrationForm.email);
    screen.getByText(translated(`register-sex-${validRegistrationForm.sexCode}`));
    // The password is shown masked; an external sign-up has none.
    const masked = screen.queryByText(translated('register-password-masked'));
    if (startOf(path) === 'external') expect(masked).toBeNull();
    else expect(masked).not.toBeNull();
    expect(button('register-submit')).toHaveProperty('disabled', false);
    expect(screen.queryByText(translated('register-failed'))).toBeNull();
  },
  submitting: async (world, { path }) => {
    await registerCall(world, path);
    expect(button('register-submitting')).toHaveProperty('disabled', true);
  },
  failed: async () => {
    expect((await screen.findByRole('alert')).textContent).toBe(translated('register-failed'));
    expect(button('register-submit')).toHaveProperty('disabled', false);
    expect(button('register-back')).toHaveProperty('disabled', false);
  },
  mailSent: async (_world, { path }) => {
    await screen.findByRole('heading', { name: translated('register-mail-sent-title') });
    screen.getByText(translated('register-mail-sent-text', { email: validRegistrationForm.email }));
    // Only a pet registration for the held link's own page completes the pet-admin setting.
    const start = startOf(path);
    const pending = registrationStarts[start].pendingPetPageId;
    expect(petLinkKept()).toEqual(
      pending === null
        ? null
        : {
            targetMemorialPageEncodedId: pending,
            completed: start === 'petLink',
            expiresAt: expect.any(Number),
          },
    );
  },
  activating: async (world) => {
    await screen.findByText(translated('activate-working'));
    let found: HeldRequest | undefined;
    await waitFor(() => {
      found = world.server.pending.find(ACTIVATION);
      expect(found, 'the activation waits').toBeDefined();
    });
    expect(found!.body).toMatchObject({ token: 't-1', email: 'hanako@example.jp' });
  },
  activated: async (world) => {
    // Activated and signed in: on to the dashboard.
    await screen.findByRole('heading', { name: 'dashboard' });
    expect(world.router.state.location.pathname).toBe('/dashboard');
  },
  activationFailed: async (world, { path }) => {
    await screen.findByText(translated('activate-failed'));
    screen.getByText(translated('activate-failed-hint'));
    // A link without its token is refused without asking the server.
    const activate = path.find((event) => event.type === 'ACTIVATE') as unknown as {
      link: { token: string };
    };
    if (activate.link.token === '') expect(world.server.asked.some(ACTIVATION)).toBe(false);
  },
  invalidUrl: async () => {
    await screen.findByRole('heading', { name: translated('register-title') });
    screen.getByText(translated('register-inflow-invalid'));
    expect(screen.queryByRole('textbox')).toBeNull();
  },
};

describeUiReplay('registration', {
  machine: registrationMachine.provide(registrationRules),
  events: registrationEvents,
  serializeState: registrationStateKey,
  executors,
  views,
  mount: () => load('/', null),
  unmount: async (world) => {
    cleanup();
    await world.server.restore();
    localStorage.clear();
  },
});
