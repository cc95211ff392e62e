import type { Page } from '@playwright/test';

/**
 * Holds the app's entry script back until the returned function is called: what shows
 * meanwhile is the server's page alone, as on a slow link.
 */
export async function holdAppCode(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Marks the element `selector` names, to find out later whether it is still the same node. */
export async function markElement(page: Page, selector: string): Promise<void> {
  await page.locator(selector).evaluate((element) => {
    (element as unknown as { serverNode: boolean }).serverNode = true;
  });
}

/**
 * Waits until React has hydrated the element `selector` names, and answers whether it is the
 * node the server sent (marked by markElement): hydrated in place, not replaced.
 */
export async function hydratedInPlace(page: Page, selector: string): Promise<boolean> {
  const element = page.locator(selector);
  await element.evaluate(
    (node) =>
      new Promise<void>((resolve) => {
        const check = () =>
          Object.keys(node).some((key) => key.startsWith('__reactFiber'))
            ? resolve()
            : setTimeout(check, 20);
        check();
      }),
  );
  return element.evaluate(
    (node) => (node as unknown as { serverNode?: boolean }).serverNode === true,
  );
}

/** Collects what React reports of a hydration that did not match the server's markup. */
export function hydrationErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /hydrat|#418|#423|#425/i.test(text)) errors.push(text);
  });
  page.on('pageerror', (error) => {
    if (/hydrat|#418|#423|#425/i.test(error.message)) errors.push(error.message);
  });
  return errors;
}

/**
 * Waits until the app has hydrated the server's page: a click before that reaches the bare
 * HTML form (a native post), not the screen's own handler.
 */
export async function untilHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const first = document.querySelector('#root > *');
    return first !== null && Object.keys(first).some((key) => key.startsWith('__reactFiber'));
  });
}
