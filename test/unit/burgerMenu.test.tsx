import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ShellChromeProvider, useShellChrome } from '../../src/components/shell/chrome';
import type { ShellSession } from '../../src/components/shell/shellSession';
import { ShellFrame } from '../../src/components/shell/ShellFrame';
import { useOpenRule } from '../../src/components/shell/useMenuNavigation';
import { answerApi } from './apiAnswers';
import { renderRoutes } from './shellProviders';

const member: ShellSession = {
  status: 'authenticated',
  user: { id: 'user-1', username: '山田', memorialPageId: 'page-1', iconUrl: null },
  accessToken: () => 'access-token',
};
const visitor: ShellSession = {
  status: 'unauthenticated',
  user: null,
  accessToken: () => undefined,
};

/** Paths the shell asked for, in order. */
let asked: string[] = [];

const EMPTY_PAGE = {
  '/v1/album/memorial_page_id/page-1/album': { detail: 'no album' },
  '/v1/history/get_histories_by_memorial_page_id/page-1': [{ id: 'h-1' }],
  '/v1/memorial_page/get_memorial_page_admin/page-1': [{ id: 'user-1' }],
  '/v1/time_capsule_letter/get_unsent_letters': [],
  '/v1/notification/user_notifications/unread/count': { count: 3 },
};

function Where() {
  const { pathname } = useLocation();
  return (
    <main>
      <h1>page {pathname}</h1>
    </main>
  );
}

function FullScreenPage() {
  useShellChrome({ header: false, footer: false });
  return <h1>own chrome</h1>;
}

/** A page that opens the ending note's menu rule as it mounts, before the statecharts run. */
function OpensTheNoteAtOnce() {
  const openRule = useOpenRule();
  useEffect(() => openRule('endingnote'), [openRule]);
  return <h1>opening</h1>;
}

function renderShell(session: ShellSession, answers: Record<string, unknown>, at = '/') {
  asked = answerApi(answers);
  return renderRoutes(
    [
      {
        element: (
          <ShellChromeProvider>
            <ShellFrame session={session}>
              <Outlet />
            </ShellFrame>
          </ShellChromeProvider>
        ),
        children: [
          { path: '/own-chrome', element: <FullScreenPage /> },
          { path: '/opens-the-note', element: <OpensTheNoteAtOnce /> },
          { path: '*', element: <Where /> },
        ],
      },
    ],
    at,
  );
}

// The client state starts before the frame's first render
// (src/services/clientState/clientState.tsx), and the navigation statecharts load after it: on
// a busy machine the frame, or the page a menu rule opens, may take more than findBy's default
// second to appear.
const FIND_TIMEOUT = { timeout: 10_000 };
const openButton = () => screen.findByRole('button', { name: 'メニューを開く' }, FIND_TIMEOUT);
const menu = () => screen.queryByRole('dialog', { name: 'メニュー' });

describe('burger menu', () => {
  it('shows the member, my page, feedback and both groups, and locks the page scroll', async () => {
    const user = userEvent.setup();
    renderShell(member, EMPTY_PAGE);
    await user.click(await openButton());
    const panel = within(menu()!);
    expect(panel.getByText('山田 さん')).toBeTruthy();
    expect(panel.getByRole('link', { name: 'マイページ' }).getAttribute('href')).toBe('/mypage');
    const feedback = panel.getByRole('link', { name: /ご意見・ご要望/ });
    expect(feedback.getAttribute('target')).toBe('_blank');
    expect(feedback.getAttribute('rel')).toBe('noopener noreferrer');
    expect(panel.getByRole('heading', { name: 'つながりサービス' })).toBeTruthy();
    expect(panel.getByRole('heading', { name: 'その他' })).toBeTruthy();
    expect(document.body.style.overflow).toBe('hidden');
    expect(menu()!.contains(document.activeElement)).toBe(true);
  });

  it('closes on the overlay, on Escape and on the toggle, giving the scroll back', async () => {
    const user = userEvent.setup();
    renderShell(member, EMPTY_PAGE);
    await user.click(await openButton());
    await user.click(screen.getByTestId('burger-overlay'));
    expect(menu()).toBeNull();
    expect(document.body.style.overflow).toBe('');

    await user.click(await openButton());
    await user.keyboard('{Escape}');
    expect(menu()).toBeNull();

    await user.click(await openButton());
    const toggle = screen.getAllByRole('button', { name: 'メニューを閉じる' });
    // The header's toggle, not the panel's own close button.
    await user.click(toggle.find((button) => button.getAttribute('aria-controls'))!);
    expect(menu()).toBeNull();
  });

  it('keeps focus inside while open', async () => {
    const user = userEvent.setup();
    renderShell(member, EMPTY_PAGE);
    await user.click(await openButton());
    const panel = menu()!;
    const focusable = panel.querySelectorAll<HTMLElement>('a[href], button');
    focusable[focusable.length - 1]!.focus();
    await user.tab();
    expect(document.activeElement).toBe(focusable[0]);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(focusable[focusable.length - 1]);
  });

  it('closes when a link changes the route', async () => {
    const user = userEvent.setup();
    renderShell(member, EMPTY_PAGE);
    await user.click(await openButton());
    await user.click(within(menu()!).getByRole('link', { name: 'マイページ' }));
    expect(await screen.findByRole('heading', { name: 'page /mypage' }, FIND_TIMEOUT)).toBeTruthy();
    expect(menu()).toBeNull();
  });

  it('offers a visitor login and registration instead of the service group', async () => {
    const user = userEvent.setup();
    renderShell(visitor, {});
    await user.click(await openButton());
    const panel = within(menu()!);
    expect(panel.getByRole('link', { name: 'ログイン' }).getAttribute('href')).toBe('/login');
    expect(panel.getByRole('link', { name: '新規登録' })).toBeTruthy();
    expect(panel.queryByRole('heading', { name: 'つながりサービス' })).toBeNull();
  });
});

describe('menu rules through the burger menu', () => {
  async function follow(entry: string, answers: Record<string, unknown>) {
    const user = userEvent.setup();
    renderShell(member, answers);
    await user.click(await openButton());
    await user.click(within(menu()!).getByRole('button', { name: entry }));
  }

  it('opens the sparse-page top for an empty album, one history entry and one admin', async () => {
    await follow('メモリアルページ', EMPTY_PAGE);
    expect(
      await screen.findByRole('heading', { name: 'page /memory/top/me' }, FIND_TIMEOUT),
    ).toBeTruthy();
  });

  it('opens the memorial page itself once it has more', async () => {
    await follow('メモリアルページ', {
      ...EMPTY_PAGE,
      '/v1/memorial_page/get_memorial_page_admin/page-1': [{ id: 'user-1' }, { id: 'user-2' }],
    });
    expect(
      await screen.findByRole('heading', { name: 'page /memory/page-1' }, FIND_TIMEOUT),
    ).toBeTruthy();
  });

  it('opens the member’s own ending note', async () => {
    await follow('エンディングノート', EMPTY_PAGE);
    expect(
      await screen.findByRole('heading', { name: 'page /endingnote/user-1' }, FIND_TIMEOUT),
    ).toBeTruthy();
  });

  it('opens an entry chosen before its statechart was loaded once it runs', async () => {
    renderShell(member, EMPTY_PAGE, '/opens-the-note');
    expect(
      await screen.findByRole('heading', { name: 'page /endingnote/user-1' }, FIND_TIMEOUT),
    ).toBeTruthy();
  });

  it("loads a visitor's statecharts with their first click, and opens the entry then", async () => {
    renderShell(visitor, {}, '/opens-the-note');
    expect(await screen.findByRole('heading', { name: 'page /login' }, FIND_TIMEOUT)).toBeTruthy();
  });

  it('opens the time capsule start without unsent letters', async () => {
    await follow('タイムカプセル', EMPTY_PAGE);
    expect(
      await screen.findByRole('heading', { name: 'page /timecapsule' }, FIND_TIMEOUT),
    ).toBeTruthy();
  });

  it('opens the time capsule list when letters wait to be sent', async () => {
    await follow('タイムカプセル', {
      ...EMPTY_PAGE,
      '/v1/time_capsule_letter/get_unsent_letters': [{ id: 'letter-1' }],
    });
    expect(
      await screen.findByRole('heading', { name: 'page /timecapsule/list' }, FIND_TIMEOUT),
    ).toBeTruthy();
  });
});

describe('tab bar, badge, inflow and chrome', () => {
  it('gives a member the four tabs with the unread badge on information', async () => {
    renderShell(member, EMPTY_PAGE);
    const tabs = within(await screen.findByRole('navigation', { name: 'タブメニュー' }));
    expect(tabs.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/dashboard',
      '/mourning',
      '/connection',
      '/notification/list',
    ]);
    expect(await tabs.findByLabelText('未読 3 件')).toBeTruthy();
  });

  it('shows no badge when the count endpoint does not exist', async () => {
    const { '/v1/notification/user_notifications/unread/count': _count, ...withoutCount } =
      EMPTY_PAGE;
    renderShell(member, withoutCount);
    await screen.findByRole('navigation', { name: 'タブメニュー' });
    await waitFor(() =>
      expect(asked).toContain('/v1/notification/user_notifications/unread/count'),
    );
    await act(async () => undefined);
    expect(screen.queryByLabelText(/^未読/)).toBeNull();
  });

  it('hides the user menus and the tab bar in inflow mode', async () => {
    renderShell(member, EMPTY_PAGE, '/?inflow=True');
    await screen.findByRole('heading', { name: 'page /' }, FIND_TIMEOUT);
    expect(screen.queryByRole('button', { name: 'メニューを開く' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'タブメニュー' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'メインメニュー' })).toBeNull();
  });

  it('shows neither header nor footer on the full-screen route', async () => {
    renderShell(member, EMPTY_PAGE, '/death-confirmation');
    await screen.findByRole('heading', { name: 'page /death-confirmation' }, FIND_TIMEOUT);
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });

  it('lets a page hide the header and footer itself', async () => {
    renderShell(visitor, {}, '/own-chrome');
    await screen.findByRole('heading', { name: 'own chrome' }, FIND_TIMEOUT);
    await waitFor(() => expect(screen.queryByRole('banner')).toBeNull());
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });
});
