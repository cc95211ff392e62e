import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './axe';

export const VIEWPORTS = {
  mobile: { width: 360, height: 740 },
  tablet: { width: 800, height: 1024 },
  desktop: { width: 1280, height: 800 },
} as const;

const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

/** Keeps a full-page screenshot as a test artifact under test-results/screenshots. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The page needs no horizontal scrolling and axe finds no serious or critical violation. */
export async function expectFitsAndAccessible(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
}
