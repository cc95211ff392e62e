import { expect, test, workerServer } from './support/fixtures';
import type { Browser, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { accessTokenOf, registerMember, signUpAndSignIn } from './support/members';
import { VIEWPORTS, keepScreenshot } from './support/screens';

/** Every route of the spec the shell frames (the auth screens are the accounts area's). */
const ROUTES = [
  '/',
  '/dashboard',
  '/mourning',
  '/memory/page-1/mourning',
  '/memory/page-1',
  '/memory/top/me',
  '/endingnote/user-1',
  '/timecapsule',
  '/timecapsule/list',
  '/connection',
  '/user-search',
  '/mypage',
  '/notification/list',
  '/death-confirmation',
  '/identity-verification',
  '/no-such-page',
];

type ViewportName = keyof typeof VIEWPORTS;

async function openPage(browser: Browser, viewport: ViewportName, path: string) {
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], bypassCSP: true });
  // The external pages are not ours: answer them locally so that the test needs no network.
  await context.route(
    /^https:\/\/(shinobu\.example\.jp|apps\.apple\.com|play\.google\.com)\//,
    (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>external</title>' }),
  );
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.getByRole('link', { name: '偲ぶ トップページ' })).toBeVisible();
  return { context, page };
}

const burgerButton = (page: Page) => page.getByRole('button', { name: 'メニューを開く' });
const burgerPanel = (page: Page) => page.getByRole('dialog', { name: 'メニュー' });

test.describe('app shell, logged out', () => {
  for (const viewport of ['mobile', 'tablet', 'desktop'] as const) {
    test(`header variant at ${VIEWPORTS[viewport].width} px`, async ({ browser }) => {
      const { context, page } = await openPage(browser, viewport, '/');
      const desktopMenu = page.getByRole('navigation', { name: 'メインメニュー' });
      if (viewport === 'desktop') {
        await expect(desktopMenu.getByRole('link', { name: 'ログイン' })).toBeVisible();
        await expect(desktopMenu.getByRole('link', { name: '新規登録' })).toBeVisible();
        await expect(burgerButton(page)).toBeHidden();
        await expect(page.getByRole('link', { name: 'ユーザー検索' })).toBeHidden();
      } else {
        await expect(desktopMenu).toBeHidden();
        await expect(burgerButton(page)).toBeVisible();
        await expect(page.getByRole('link', { name: 'ユーザー検索' })).toHaveAttribute(
          'href',
          '/user-search',
        );
      }
      // No tab bar for a visitor; the footer carries the policies and the copyright.
      await expect(page.getByTestId('tab-bar')).toHaveCount(0);
      const footer = page.getByRole('contentinfo');
      await expect(footer.getByRole('link', { name: /プライバシーポリシー/ })).toBeVisible();
      await expect(
        footer.getByRole('link', { name: '利用制限事項 （新しいタブで開きます）' }),
      ).toHaveAttribute('href', /\/usage-restrictions$/);
      await expect(footer).toContainText('Shinobu Inc.');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
      await keepScreenshot(page, `shell-guest-header-${viewport}`);
      await context.close();
    });
  }

  for (const viewport of ['mobile', 'tablet'] as const) {
    test(`burger menu opens, traps focus and closes at ${VIEWPORTS[viewport].width} px`, async ({
      browser,
    }) => {
      const { context, page } = await openPage(browser, viewport, '/');
      const bodyOverflow = () => page.evaluate(() => document.body.style.overflow);
      const panelHasFocus = () =>
        page.evaluate(() =>
          document.getElementById('burger-menu')!.contains(document.activeElement),
        );

      await burgerButton(page).click();
      await expect(burgerPanel(page)).toBeVisible();
      await expect(burgerPanel(page).getByRole('heading', { name: 'その他' })).toBeVisible();
      await expect(burgerPanel(page).getByRole('link', { name: /ご意見・ご要望/ })).toBeVisible();
      expect(await bodyOverflow()).toBe('hidden');
      await expect.poll(panelHasFocus, 'focus moves into the opened menu').toBe(true);
      await keepScreenshot(page, `shell-guest-burger-${viewport}`);

      // Focus cycles inside the panel.
      for (let i = 0; i < 16; i += 1) await page.keyboard.press('Tab');
      expect(await panelHasFocus()).toBe(true);
      await page.keyboard.press('Shift+Tab');
      expect(await panelHasFocus()).toBe(true);

      // The overlay (left of the panel) closes it and gives the page its scroll back.
      await page.mouse.click(10, 300);
      await expect(burgerPanel(page)).toBeHidden();
      expect(await bodyOverflow()).toBe('');
      await expect(burgerButton(page)).toBeFocused();

      // The toggle opens it again; Escape closes it.
      await burgerButton(page).click();
      await expect(burgerPanel(page)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(burgerPanel(page)).toBeHidden();

      // Following a link changes the route and leaves the menu closed.
      await burgerButton(page).click();
      await burgerPanel(page).getByRole('link', { name: 'ログイン' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(burgerPanel(page)).toBeHidden();
      await context.close();
    });
  }

  test('the banner offers login and registration and steps aside near the bottom', async ({
    browser,
  }) => {
    const { context, page } = await openPage(browser, 'mobile', '/');
    const banner = page.getByTestId('guest-banner');
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('link', { name: 'ログイン' })).toHaveAttribute('href', '/login');
    await expect(banner.getByRole('link', { name: '新規登録' })).toHaveAttribute(
      'href',
      '/register-top?register=true',
    );
    await keepScreenshot(page, 'shell-guest-banner-mobile');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(banner).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.getByTestId('guest-banner')).toBeVisible();
    // Never on the configured page.
    await page.goto('/login');
    await expect(page.getByRole('link', { name: '偲ぶ トップページ' })).toBeVisible();
    await expect(page.getByTestId('guest-banner')).toHaveCount(0);
    await context.close();
  });

  test('inflow mode hides the user menus and the banner', async ({ browser }) => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const { context, page } = await openPage(browser, viewport, '/?inflow=True');
      await expect(burgerButton(page)).toHaveCount(0);
      await expect(page.getByRole('navigation', { name: 'メインメニュー' })).toHaveCount(0);
      await expect(page.getByTestId('guest-banner')).toHaveCount(0);
      await keepScreenshot(page, `shell-inflow-${viewport}`);
      await context.close();
    }
  });

  test('the full-screen route has neither header nor footer', async ({ browser }) => {
    const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    await page.goto('/death-confirmation');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    await context.close();
  });

  test('external links open in a new tab that cannot reach back', async ({ browser }) => {
    const { context, page } = await openPage(browser, 'desktop', '/');
    const privacy = page
      .getByRole('contentinfo')
      .getByRole('link', { name: /プライバシーポリシー/ });
    await expect(privacy).toHaveAttribute('target', '_blank');
    await expect(privacy).toHaveAttribute('rel', 'noopener noreferrer');
    const [opened] = await Promise.all([context.waitForEvent('page'), privacy.click()]);
    await opened.waitForLoadState();
    expect(opened.url()).toBe(await privacy.getAttribute('href'));
    expect(await opened.evaluate(() => window.opener)).toBeNull();
    await expect(page).toHaveURL(/\/$/);
    await context.close();
  });

  test('a short screen (below 820 px high) keeps the banner low', async ({ browser }) => {
    // The mobile viewport, 740 px high, is a short screen; 900 px is not.
    const { context, page } = await openPage(browser, 'mobile', '/');
    const banner = page.getByTestId('guest-banner');
    const shortHeight = (await banner.boundingBox())!.height;
    await page.setViewportSize({ width: VIEWPORTS.mobile.width, height: 900 });
    await expect
      .poll(async () => (await banner.boundingBox())!.height)
      .toBeGreaterThan(shortHeight);
    await context.close();
  });

  test('the frame passes axe in the dark theme with the burger menu open', async ({ browser }) => {
    const context = await browser.newContext({
      viewport: VIEWPORTS.mobile,
      colorScheme: 'dark',
      bypassCSP: true,
    });
    const page = await context.newPage();
    await page.goto('/');
    await burgerButton(page).click();
    await expect(burgerPanel(page)).toBeVisible();
    await keepScreenshot(page, 'shell-guest-burger-dark-mobile');
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  for (const viewport of ['mobile', 'desktop'] as const) {
    test(`every route passes axe at ${VIEWPORTS[viewport].width} px`, async ({ browser }) => {
      // One test walks every route of the spec: it needs the time of several ordinary tests.
      test.setTimeout(240_000);
      const context = await browser.newContext({ viewport: VIEWPORTS[viewport], bypassCSP: true });
      const page = await context.newPage();
      const complaints: string[] = [];
      page.on('console', (message) => {
        // A visitor's member-only calls answer 401: the browser logs those loads itself.
        if (message.text().startsWith('Failed to load resource')) return;
        if (message.type() === 'error' || message.type() === 'warning')
          complaints.push(`${message.type()}: ${message.text()}`);
      });
      for (const path of ROUTES) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await test.step(path, () => expectNoSeriousA11yViolations(page));
      }
      expect(complaints, 'console errors and warnings').toEqual([]);
      await context.close();
    });
  }
});

/** Each route's own title, as a visitor and as a member open it (page-title-* in Fluent). */
const VISITOR_TITLES: [string, string][] = [
  ['/', '大切な人を想う終活・追悼サービス｜偲ぶ'],
  ['/login', 'ログイン｜偲ぶ'],
  ['/register-top', '新規会員登録｜偲ぶ'],
  ['/password-reset', 'パスワードの再設定｜偲ぶ'],
  ['/user-search', 'ユーザー検索｜偲ぶ'],
  ['/no-such-page', 'ページが見つかりません｜偲ぶ'],
];
const MEMBER_TITLES: [string, string][] = [
  ['/dashboard', 'ホーム｜偲ぶ'],
  ['/mourning', '偲ぶ｜偲ぶ'],
  ['/memory/top/me', '自分のメモリアルページ｜偲ぶ'],
  ['/memory/new', 'メモリアルページの作成｜偲ぶ'],
  ['/timecapsule', 'タイムカプセル｜偲ぶ'],
  ['/timecapsule/list', 'タイムカプセルの手紙一覧｜偲ぶ'],
  ['/timecapsule/new', '手紙を書く｜偲ぶ'],
  ['/connection', 'つながり｜偲ぶ'],
  ['/mypage', 'マイページ｜偲ぶ'],
  ['/notification/list', 'お知らせ｜偲ぶ'],
  ['/death-settings', '見守り役と確認の設定｜偲ぶ'],
  ['/death-administration', '見守っている方｜偲ぶ'],
];

test('every route sets its own Japanese title, for a visitor and for a member', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const visitor = await browser.newContext({ viewport: VIEWPORTS.mobile });
  const visitorPage = await visitor.newPage();
  for (const [path, title] of VISITOR_TITLES) {
    await visitorPage.goto(path);
    await expect(visitorPage, path).toHaveTitle(title);
  }
  await visitor.close();

  const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
  await signUpAndSignIn(context.request);
  const page = await context.newPage();
  for (const [path, title] of MEMBER_TITLES) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(title);
  }
  // Moving within the app names the new route too, not only a page load.
  await page
    .getByRole('navigation', { name: 'タブメニュー' })
    .getByRole('link', { name: 'つながり' })
    .click();
  await expect(page).toHaveURL(/\/connection$/);
  await expect(page).toHaveTitle('つながり｜偲ぶ');
  await context.close();
});

test.describe('app shell, logged in', () => {
  async function memberPage(browser: Browser, viewport: ViewportName, path: string) {
    const context = await browser.newContext({ viewport: VIEWPORTS[viewport], bypassCSP: true });
    const member = await signUpAndSignIn(context.request);
    const page = await context.newPage();
    await page.goto(path);
    await expect(page.getByRole('link', { name: '偲ぶ トップページ' })).toBeVisible();
    return { context, page, member };
  }

  test('mobile: tab bar with the four tabs, burger with the member and groups', async ({
    browser,
  }) => {
    const { context, page } = await memberPage(browser, 'mobile', '/dashboard');
    const tabs = page.getByRole('navigation', { name: 'タブメニュー' });
    await expect(tabs).toBeVisible();
    for (const [name, href] of [
      ['ホーム', '/dashboard'],
      ['偲ぶ', '/mourning'],
      ['つながり', '/connection'],
      ['お知らせ', '/notification/list'],
    ] as const) {
      await expect(tabs.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    await expect(tabs.getByRole('link', { name: 'ホーム' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByTestId('guest-banner')).toHaveCount(0);
    await keepScreenshot(page, 'shell-member-mobile');

    await tabs.getByRole('link', { name: 'お知らせ' }).click();
    await expect(page).toHaveURL(/\/notification\/list$/);
    await expect(tabs.getByRole('link', { name: 'お知らせ' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await burgerButton(page).click();
    await expect(burgerPanel(page).getByText('hanako さん')).toBeVisible();
    await expect(
      burgerPanel(page).getByRole('heading', { name: 'つながりサービス' }),
    ).toBeVisible();
    await keepScreenshot(page, 'shell-member-burger-mobile');
    await burgerPanel(page).getByRole('link', { name: 'マイページ' }).click();
    await expect(page).toHaveURL(/\/mypage$/);
    await expect(burgerPanel(page)).toBeHidden();
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  test('tablet: burger and no tab bar', async ({ browser }) => {
    const { context, page } = await memberPage(browser, 'tablet', '/dashboard');
    await expect(burgerButton(page)).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'タブメニュー' })).toBeHidden();
    await keepScreenshot(page, 'shell-member-tablet');
    await context.close();
  });

  test('desktop: menu items, notifications and the avatar to my page; menu rules', async ({
    browser,
  }) => {
    const { context, page } = await memberPage(browser, 'desktop', '/dashboard');
    const header = page.getByRole('banner');
    const menu = page.getByRole('navigation', { name: 'メインメニュー' });
    await expect(menu.getByRole('link', { name: 'ホーム' })).toBeVisible();
    await expect(header.getByRole('link', { name: /お知らせ/ })).toHaveAttribute(
      'href',
      '/notification/list',
    );
    await expect(header.getByRole('link', { name: 'マイページ' })).toHaveAttribute(
      'href',
      '/mypage',
    );
    await expect(burgerButton(page)).toBeHidden();
    await keepScreenshot(page, 'shell-member-desktop');

    // A new member's own page is sparse: the memory entry opens its top.
    await menu.getByRole('button', { name: 'メモリアルページ' }).click();
    await expect(page).toHaveURL(/\/memory\/top\/me$/);
    await menu.getByRole('button', { name: 'エンディングノート' }).click();
    await expect(page).toHaveURL(/\/endingnote\/[0-9a-f-]{36}$/);
    // No unsent letters yet: the time capsule starts from its first page.
    await menu.getByRole('button', { name: 'タイムカプセル' }).click();
    await expect(page).toHaveURL(/\/timecapsule$/);
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  test('a short screen (below 820 px high) starts a dialog at the top, a tall one centres it', async ({
    browser,
  }) => {
    const { context, page, member } = await memberPage(browser, 'mobile', '/dashboard');
    const { userId } = await accessTokenOf(context.request, member);
    await page.goto(`/endingnote/${userId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('エンディングノート');
    // Unsaved typing and a link away: the unsaved-changes dialog.
    await page.getByLabel('氏名').fill('山田 花子');
    await page.getByRole('link', { name: '偲ぶ トップページ' }).first().click();
    const warning = page.getByRole('dialog', { name: '保存されていない変更があります' });
    await expect(warning).toBeVisible();
    expect((await warning.boundingBox())!.y).toBeLessThanOrEqual(8);
    await keepScreenshot(page, 'shell-dialog-short-mobile');
    await page.setViewportSize({ width: VIEWPORTS.mobile.width, height: 900 });
    await expect
      .poll(async () => {
        const box = (await warning.boundingBox())!;
        return Math.abs(box.y + box.height / 2 - 450);
      })
      .toBeLessThanOrEqual(1);
    await context.close();
  });

  test('the identity-verification help opens in a new tab', async ({ browser }) => {
    const { context, page } = await memberPage(browser, 'mobile', '/identity-verification');
    const help = page.getByRole('link', { name: /^本人確認について\(ヘルプ\)/ });
    await expect(help).toHaveAttribute(
      'href',
      'https://shinobu.example.jp/help/identity-verification',
    );
    await expect(help).toHaveAttribute('target', '_blank');
    await expect(help).toHaveAttribute('rel', 'noopener noreferrer');
    await context.close();
  });

  test('inflow mode hides the tab bar and the user menus of a member', async ({ browser }) => {
    const { context, page } = await memberPage(browser, 'mobile', '/dashboard?inflow=True');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'タブメニュー' })).toHaveCount(0);
    await expect(burgerButton(page)).toHaveCount(0);
    await keepScreenshot(page, 'shell-member-inflow-mobile');
    await context.close();
  });

  test('the unread badge counts a new connection request', async ({ browser, playwright }) => {
    const { context, page, member } = await memberPage(browser, 'mobile', '/dashboard');
    const tabs = page.getByRole('navigation', { name: 'タブメニュー' });
    await expect(tabs).toBeVisible();
    await expect(tabs.getByLabel(/^未読/)).toHaveCount(0);

    const other = await playwright.request.newContext({ baseURL: workerServer().baseURL });
    const requester = await accessTokenOf(other, await registerMember(other));
    const { userId } = await accessTokenOf(other, member);
    const sent = await other.post('/v1/connection/requests', {
      headers: { authorization: `Bearer ${requester.accessToken}` },
      data: { to_user_id: userId, relationship: 'friend' },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    await other.dispose();

    await page.reload();
    await expect(tabs.getByLabel('未読 1 件')).toHaveText('1');
    await keepScreenshot(page, 'shell-member-unread-mobile');
    await context.close();
  });
});
