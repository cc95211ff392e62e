import { expect, type Page } from '@playwright/test';

const MENU = 'メインメニュー';

/** The header's menu: the member's (ホーム, ...) or the visitor's (ログイン, ...). */
export async function headerShows(page: Page, who: 'member' | 'visitor') {
  const menu = page.getByRole('navigation', { name: MENU });
  await expect(
    menu.getByRole('link', { name: who === 'member' ? 'ホーム' : 'ログイン' }),
  ).toBeVisible();
  await expect(
    menu.getByRole('link', { name: who === 'member' ? 'ログイン' : 'ホーム' }),
  ).toHaveCount(0);
}
