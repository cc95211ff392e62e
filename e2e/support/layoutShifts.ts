import type { Page } from '@playwright/test';

type ShiftWindow = Window & { layoutShiftTotal: number };

/**
 * Starts adding up the page's layout shifts from now on (the first paint's hand-over must not
 * move anything); the returned function reads the total so far.
 */
export async function countLayoutShifts(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const shiftWindow = window as unknown as ShiftWindow;
    shiftWindow.layoutShiftTotal = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        shiftWindow.layoutShiftTotal += (entry as unknown as { value: number }).value;
      }
    }).observe({ type: 'layout-shift', buffered: false });
  });
  return () => page.evaluate(() => (window as unknown as ShiftWindow).layoutShiftTotal);
}
