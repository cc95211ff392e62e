import { readFileSync } from 'node:fs';
import path from 'node:path';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { ThemeProvider } from 'styled-components';
import { describe, expect, it, vi } from 'vitest';
import { UnsavedChangesDialog } from '../../src/components/form/UnsavedChangesDialog';
import { bundleFrom, I18nProvider } from '../../src/i18n/I18nProvider';
import type { NavigationTarget } from '../../src/machines/unsavedChangesGuard';
import { theme } from '../../src/theme/tokens';

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
      <Link to="/guide#top">Guide</Link>
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
      { path: '/guide', element: <h1>Guide page</h1> },
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

describe('the unsaved-changes guard in a screen', () => {
  it('lets a clean form go without asking', async () => {
    const { router, spies, user } = renderForm();
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
    expect(spies.onWarningOpen).not.toHaveBeenCalled();
  });

  it('holds navigation with unsaved changes and, on cancel, keeps everything typed', async () => {
    const { router, spies, user } = renderForm();
    await user.type(screen.getByLabelText('Note'), 'まだ保存していない文章');
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await screen.findByRole('dialog', { name: dialogTitle });
    expect(dialog.textContent).toContain('入力した内容は保存されません');
    expect(spies.onWarningOpen).toHaveBeenCalledWith({ href: '/elsewhere', isHashUrl: false });
    await user.click(screen.getByRole('button', { name: 'このページに留まる' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(spies.onWarningClose).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe('/form');
    expect((screen.getByLabelText('Note') as HTMLInputElement).value).toBe(
      'まだ保存していない文章',
    );
  });

  it('proceeds to the target when the member confirms', async () => {
    const { router, spies, user } = renderForm();
    await user.type(screen.getByLabelText('Note'), 'x');
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await user.click(await screen.findByRole('button', { name: '保存せずに移動する' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
    expect(spies.onWarningClose).toHaveBeenCalledTimes(1);
    expect(spies.loadPage).not.toHaveBeenCalled();
  });

  it('loads a hash URL target as a whole page when confirmed', async () => {
    const { router, spies, user } = renderForm();
    await user.type(screen.getByLabelText('Note'), 'x');
    await user.click(screen.getByRole('link', { name: 'Guide' }));
    await user.click(await screen.findByRole('button', { name: '保存せずに移動する' }));
    expect(spies.loadPage).toHaveBeenCalledWith('/guide#top');
    expect(router.state.location.pathname).toBe('/form');
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
