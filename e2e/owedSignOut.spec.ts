/**
 * A sign-out the server did not take (docs/client-auth.md, "An owed sign-out"): the member is
 * signed out in every tab at once, stays signed out over a reload while the server still
 * cannot be reached, and the next reload that reaches it makes the sign-out there; signing
 * in again afterwards holds.
 */
import { expect, test } from './support/fixtures';
import type { BrowserContext, Page } from '@playwright/test';
import { headerShows } from './support/header';
import { untilHydrated } from './support/hydration';
import { sessionUser, signInOnLoginScreen, signUpAndSignIn } from './support/members';
import { VIEWPORTS } from './support/screens';

const sessionCookie = async (context: BrowserContext) =>
  (await context.cookies()).find((cookie) => cookie.name === 'shinobu.session-token');

test('a sign-out the server did not take is made on the next reload; a new sign-in holds', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  const member = await signUpAndSignIn(context.request);
  // Every sign-out call of this browser and its answer, per tab.
  const signOuts = new Map<Page, string[]>();
  context.on('response', (response) => {
    const page = response.frame().page();
    if (new URL(response.url()).pathname !== '/api/auth/signout') return;
    signOuts.set(page, [...(signOuts.get(page) ?? []), String(response.status())]);
  });
  const answers = (page: Page) => () => signOuts.get(page) ?? [];

  const other = await context.newPage();
  await other.goto('/mypage');
  await untilHydrated(other);
  await headerShows(other, 'member');
  const page = await context.newPage();
  await page.goto('/logout');
  await untilHydrated(page);

  // The server cannot make the sign-out.
  const refuse = '**/api/auth/signout';
  await context.route(refuse, (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
  );
  await page.getByRole('button', { name: 'ログアウト', exact: true }).click();
  await expect.poll(answers(page)).toEqual(['503']);
  await headerShows(page, 'visitor');
  // The other tab hears of it and sends the sign-out again rather than read the session back.
  await expect.poll(answers(other)).toContain('503');
  await headerShows(other, 'visitor');
  // The cookie still opens the session: only the owed sign-out keeps the member out.
  expect(await sessionCookie(context)).toBeDefined();

  // A reload while the server still refuses: the sign-out is sent first, and fails again.
  await page.reload();
  await expect.poll(answers(page)).toEqual(['503', '503']);
  await untilHydrated(page);
  await headerShows(page, 'visitor');

  // The next reload reaches the server: the sign-out is made there.
  await context.unroute(refuse);
  await page.reload();
  await expect.poll(answers(page)).toEqual(['503', '503', '200']);
  await untilHydrated(page);
  await headerShows(page, 'visitor');
  expect(await sessionCookie(context)).toBeUndefined();
  expect(await sessionUser(page)).toBeNull();

  // Signing in again holds over a reload: the paid sign-out does not undo it.
  await page.goto('/login');
  await signInOnLoginScreen(page, member.email, member.password);
  await headerShows(page, 'member');
  await page.reload();
  await untilHydrated(page);
  await headerShows(page, 'member');
  expect(await sessionUser(page)).not.toBeNull();
  expect(answers(page)()).toEqual(['503', '503', '200']);
  await context.close();
});
