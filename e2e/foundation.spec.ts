import { expect, test } from './support/fixtures';
import { expectNoSeriousA11yViolations } from './support/axe';
import { VIEWPORTS, keepScreenshot } from './support/screens';

test.describe('home page', () => {
  for (const [name, viewport] of [
    ['mobile', VIEWPORTS.mobile],
    ['desktop', VIEWPORTS.desktop],
  ] as const) {
    test(`renders in Japanese at ${viewport.width} px`, async ({ browser }) => {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        '大切な人を、いつまでも偲ぶ場所',
      );
      await expect(page).toHaveTitle(/偲ぶ/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
      await keepScreenshot(page, `foundation-home-${name}`);
      await expectNoSeriousA11yViolations(page);
      await context.close();
    });
  }

  test('keeps the chosen theme across a reload', async ({ page }) => {
    await page.goto('/');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // The app starts in short tasks after the page's load (docs/app-shell.md, "Start-up
    // work"): its theme is on the page once its first screen is.
    const darkChoice = page.getByRole('radio', { name: 'ダーク' });
    await expect(darkChoice).toBeVisible();
    const light = await background();
    await darkChoice.check();
    await expect.poll(background).not.toBe(light);
    const dark = await background();
    await page.reload();
    await expect(page.getByRole('radio', { name: 'ダーク' })).toBeChecked();
    expect(await background()).toBe(dark);
    await page.getByRole('radio', { name: 'ライト' }).check();
    await expect.poll(background).toBe(light);
  });

  test('serves client routes from the SPA and a Japanese not-found page', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ページが見つかりません');
  });
});
