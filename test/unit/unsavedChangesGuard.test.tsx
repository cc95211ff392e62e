import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { ThemeProvider } from 'styled-components';
import { describe, expect, it, vi } from 'vitest';
import { UnsavedChangesDialog } from '../../src/components/form/UnsavedChangesDialog';
import { bundleFrom, I18nProvider } from '../../src/i18n/I18nProvider';
import {
  unsavedChangesGuardMachine,
  type NavigationTarget,
  type UnsavedChangesGuardEvent,
} from '../../src/machines/unsavedChangesGuard';
import { theme } from '../../src/theme/tokens';
import { hashTarget, routeTarget, unsavedChangesGuardEvents } from '../model/flowEvents';
import { describeUiReplay, type Executor, type ViewAssertion } from './replay/uiReplay';

const bundle = bundleFrom(
  readFileSync(path.join(__dirname, '../../src/i18n/ja/translation.ftl'), 'utf8'),
);

/** What the guard tells the screen, and the browser's page load (jsdom cannot load pages). */
const makeSpies = () => ({
  onWarningOpen: vi.fn<(target: NavigationTarget) => void>(),
  onWarningClose: vi.fn<() => void>(),
  loadPage: vi.fn<(href: string) => void>(),
});
type Spies = ReturnType<typeof makeSpies>;

/** A screen with one field; its saved value is what the field held at the last save. */
function FormScreen(spies: Spies) {
  const [text, setText] = useState('');
  const [saved, setSaved] = useState('');
  return (
    <main>
      <label>
        Note
        <input value={text} onChange={(event) => setText(event.target.value)} />
      </label>
      <button type="button" onClick={() => setSaved(text)}>
        Save
      </button>
      <Link to="/elsewhere">Elsewhere</Link>
      <Link to={routeTarget.href}>My page</Link>
      <Link to={hashTarget.href}>Dashboard news</Link>
      <Link to="/form#field">Jump</Link>
      <UnsavedChangesDialog when={text !== saved} {...spies} />
    </main>
  );
}

function renderForm() {
  const spies = makeSpies();
  const router = createMemoryRouter(
    [
      { path: '/form', element: <FormScreen {...spies} /> },
      { path: '/elsewhere', element: <h1>Elsewhere page</h1> },
      { path: '/mypage', element: <h1>My page</h1> },
      { path: '/dashboard', element: <h1>Dashboard page</h1> },
    ],
    { initialEntries: ['/form'] },
  );
  render(
    <ThemeProvider theme={theme}>
      <I18nProvider bundle={bundle}>
        <RouterProvider router={router} />
      </I18nProvider>
    </ThemeProvider>,
  );
  return { router, spies, user: userEvent.setup() };
}

const dialogTitle = '保存されていない変更があります';
const stay = 'このページに留まる';
const leave = '保存せずに移動する';

type World = ReturnType<typeof renderForm>;
type EventType = UnsavedChangesGuardEvent['type'];

const dialog = () => screen.queryByRole('dialog', { name: dialogTitle });
const field = () => screen.getByLabelText('Note') as HTMLInputElement;
const pageHeading = (href: string) => (href === routeTarget.href ? 'My page' : 'Dashboard page');
const linkName = (href: string) => (href === routeTarget.href ? 'My page' : 'Dashboard news');

/** While the dialog is open the page behind it is out of reach: focus stays in the dialog. */
async function pageOutOfReach({ user }: World) {
  await user.tab();
  expect(dialog()!.contains(document.activeElement)).toBe(true);
}

/** A dialog button, or nothing to press when no dialog is open. */
const pressDialogButton =
  (name: string) =>
  async ({ user }: World) => {
    const button = screen.queryByRole('button', { name });
    if (button) await user.click(button);
  };

const executors = {
  'FORM.CHANGED': async (world) =>
    dialog() ? pageOutOfReach(world) : world.user.type(field(), 'あ'),
  'FORM.SAVED': async (world) =>
    dialog()
      ? pageOutOfReach(world)
      : world.user.click(screen.getByRole('button', { name: 'Save' })),
  NAVIGATE: async (world, event) => {
    const { href } = (event as Extract<UnsavedChangesGuardEvent, { type: 'NAVIGATE' }>).target;
    // With the dialog open the links are out of reach; the app's own navigation still asks.
    if (dialog()) await act(() => world.router.navigate(href));
    else await world.user.click(screen.getByRole('link', { name: linkName(href) }));
  },
  CONFIRM: pressDialogButton(leave),
  CANCEL: pressDialogButton(stay),
} satisfies Record<EventType, Executor<World>>;

/** The form is on screen, with nothing asked. */
function onForm({ router }: World) {
  expect(dialog()).toBeNull();
  expect(router.state.location.pathname).toBe('/form');
}

const views: Record<string, ViewAssertion<World>> = {
  clean: async (world, { event, from }) => {
    const { router, spies } = world;
    if (event?.type === 'NAVIGATE' || (event?.type === 'CONFIRM' && from.includes('warning'))) {
      // Left: straight away from a clean form, or on confirming, for the target that was held.
      const target =
        event.type === 'NAVIGATE'
          ? (event as Extract<UnsavedChangesGuardEvent, { type: 'NAVIGATE' }>).target
          : spies.onWarningOpen.mock.lastCall![0];
      expect(dialog()).toBeNull();
      if (event.type === 'CONFIRM' && target.isHashUrl) {
        expect(spies.loadPage).toHaveBeenCalledWith(target.href);
        expect(router.state.location.pathname).toBe('/form');
      } else {
        expect(await screen.findByRole('heading', { name: pageHeading(target.href) })).toBeTruthy();
        expect(router.state.location.pathname).toBe(new URL(target.href, 'http://x').pathname);
        expect(spies.loadPage).not.toHaveBeenCalled();
      }
      return;
    }
    onForm(world);
    expect(spies.loadPage).not.toHaveBeenCalled();
  },
  dirty: (world, { event, from, path }) => {
    onForm(world);
    // What was typed stays, whatever was asked meanwhile.
    const typed = path.filter(({ type }) => type === 'FORM.CHANGED').length;
    expect(field().value.length).toBeGreaterThan(0);
    expect(field().value.length).toBeLessThanOrEqual(typed);
    if (event?.type === 'CANCEL' && from.includes('warning'))
      expect(world.spies.onWarningClose).toHaveBeenCalledTimes(
        world.spies.onWarningOpen.mock.calls.length,
      );
  },
  warning: (world, { event, from }) => {
    const shown = dialog();
    expect(shown?.textContent).toContain('入力した内容は保存されません');
    expect(world.router.state.location.pathname).toBe('/form');
    if (event?.type === 'NAVIGATE' && !from.includes('warning'))
      expect(world.spies.onWarningOpen).toHaveBeenLastCalledWith(
        (event as Extract<UnsavedChangesGuardEvent, { type: 'NAVIGATE' }>).target,
      );
  },
};

describeUiReplay('unsavedChangesGuard', {
  machine: unsavedChangesGuardMachine,
  events: unsavedChangesGuardEvents,
  mount: renderForm,
  executors,
  views,
  // Leaving, at once from a clean form or on confirming, ends the form and its guard.
  endsPath: (from, event, to) =>
    to.matches('clean') &&
    (event.type === 'NAVIGATE' || (event.type === 'CONFIRM' && from.matches('warning'))),
});

describe('the unsaved-changes guard in a screen', () => {
  it('lets a clean form go without asking', async () => {
    const { router, spies, user } = renderForm();
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
    expect(spies.onWarningOpen).not.toHaveBeenCalled();
  });

  it('does not ask for a jump within the page or after the changes are saved', async () => {
    const { router, spies, user } = renderForm();
    await user.type(screen.getByLabelText('Note'), 'x');
    await user.click(screen.getByRole('link', { name: 'Jump' }));
    expect(router.state.location.hash).toBe('#field');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere page' })).toBeTruthy();
    expect(spies.onWarningOpen).not.toHaveBeenCalled();
  });

  it("asks for the browser's own prompt on reload or tab close only while changes are unsaved", async () => {
    const { user } = renderForm();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.type(screen.getByLabelText('Note'), 'x');
    expect(unload()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(unload()).toBe(false);
  });
});
