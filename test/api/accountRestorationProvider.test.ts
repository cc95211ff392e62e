import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { externalIdentities } from '../../server/db/schema';
import { releaseDepsOf } from '../../server/areaDeps';
import { releaseDueCases } from '../../server/domain/deathDetection/release';
import {
  localIssuer,
  startLocalOidcProvider,
  type LocalOidcProvider,
} from '../support/localOidcProvider';
import { connectMembers, createMember, type TestMember } from '../support/members';
import { createTestApp, type TestApp } from '../support/testApp';
import {
  confirmDeath,
  reportSuspicion,
  setAdministrators,
  verifyIdentity,
} from './deathDetectionSupport';
import {
  browserOf,
  cookieHeader,
  LINE_CLIENT,
  lineEnv,
  lineSignIn,
  SOCIAL_ORIGIN,
  throughProvider,
  type Jar,
} from './socialSupport';

/**
 * The way back for a member who signs in only with LINE: their LINE sign-in after the release
 * is refused and mails the link; the link's page learns what it needs; a new LINE round trip
 * that signs nobody in proves the link (someone else's LINE account is refused and counted);
 * the proof stands in for the password for half an hour.
 */

const PORT = 5113 + (process.env.API_TEST_DATABASE === 'postgres' ? 1 : 0);
const ISSUER = localIssuer(PORT);
const DAY_MS = 24 * 60 * 60 * 1000;

let provider: LocalOidcProvider;
let t: TestApp;
beforeAll(async () => {
  provider = await startLocalOidcProvider({
    port: PORT,
    clientId: LINE_CLIENT.id,
    clientSecret: LINE_CLIENT.secret,
    redirectUris: [`${SOCIAL_ORIGIN}/api/auth/callback/line`],
  });
  t = await createTestApp(lineEnv(PORT));
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

const post = (url: string, body: unknown, jar?: Jar) =>
  t.request({
    method: 'POST',
    url,
    body,
    ...(jar ? { headers: { cookie: cookieHeader(jar) } } : {}),
  });
const linkNeeds = (token: string) => post('/v1/account_restoration/link', { token });

/** The token of the newest restoration mail to `email`, and its text. */
async function mailed(email: string) {
  await t.sendMail();
  const mail = t.mailbox.findLast((m) => m.to === email && m.link?.includes('/restore-account'));
  expect(mail, 'a restoration mail').toBeDefined();
  return { token: new URL(mail!.link!).searchParams.get('token')!, text: mail!.text };
}

/** The restoration link's LINE button, through the provider signed in as `sub`, and back. */
async function proveWithLine(jar: Jar, token: string, sub: string) {
  provider.signInNext({ sub, email: `${sub}@example.jp`, name: sub });
  const started = await browserOf(t, jar)(
    'GET',
    `/api/auth/restore/line?${new URLSearchParams({ token })}`,
  );
  expect(started.statusCode).toBe(302);
  const back = await throughProvider(t, jar, ISSUER, started.headers.location as string);
  expect(back.statusCode).toBe(302);
  const page = new URL(back.headers.location as string);
  expect(page.origin + page.pathname).toBe(`${SOCIAL_ORIGIN}/restore-account`);
  expect(page.searchParams.get('token')).toBe(token);
  // The round trip signs nobody in.
  expect([...jar.keys()].some((name) => name.includes('session-token'))).toBe(false);
  return page.searchParams.get('assertion')!;
}

/** A member who signs in only with LINE, released by mistake by their 見守り役. */
async function releasedLineMember(
  sub: string,
): Promise<{ member: TestMember; releasedAt: string }> {
  const member = await createMember(t, { lastName: '高橋', firstName: '恵' });
  await t.ctx.database.db
    .insert(externalIdentities)
    .values({ provider: 'line', providerUserId: sub, userId: member.id });
  const watcher = await createMember(t, { lastName: '高橋', firstName: '誠' });
  await connectMembers(t, member, watcher, 'family');
  await setAdministrators(t, member, [watcher], 'any_one');
  // A 見守り役 named within the week cannot report yet.
  t.clock.advance(7 * DAY_MS);
  expect((await reportSuspicion(t, watcher, member)).statusCode).toBe(201);
  const keys = await verifyIdentity(t, watcher);
  expect((await confirmDeath(t, watcher, keys, member)).json().state).toBe('grace');
  t.clock.advance(7 * DAY_MS + 60_000);
  expect(await releaseDueCases(releaseDepsOf(t.ctx))).toBe(1);
  return { member, releasedAt: t.clock.now().toISOString() };
}

describe('restoring an account that signs in only with LINE', () => {
  it('refuses the LINE sign-in with the way back, and restores once LINE proves the link', async () => {
    const sub = 'line-restore-1';
    const { member, releasedAt } = await releasedLineMember(sub);

    // The LINE sign-in is refused: the login screen is told why and when; a link is mailed.
    const signIn: Jar = new Map();
    provider.signInNext({ sub, email: member.email, name: 'めぐみ' });
    const refused = await lineSignIn(t, signIn, ISSUER);
    expect(refused.statusCode).toBe(302);
    const login = new URL(refused.headers.location as string, SOCIAL_ORIGIN);
    expect(login.pathname).toBe('/login');
    expect(Object.fromEntries(login.searchParams)).toEqual({
      error: 'OAuthCallback',
      code: 'account_memorialized',
      since: releasedAt,
    });
    expect([...signIn.keys()].some((name) => name.includes('session-token'))).toBe(false);
    const { token, text } = await mailed(member.email);
    expect(text).toContain('先ほど、あなたのLINEアカウントでログインがありました。');
    expect(text).toContain('もう一度LINEでログインしてください。');

    // The link's page learns what it needs before anything is typed.
    const needs = await linkNeeds(token);
    expect(needs.statusCode, needs.body).toBe(200);
    expect(needs.json()).toEqual({
      releasedAt,
      hasPassword: false,
      providers: ['line'],
      proven: false,
    });
    // Without a password or a proof nothing is restored.
    const bare = await post('/v1/account_restoration', { token });
    expect(bare.statusCode).toBe(422);
    expect(bare.json().errors).toEqual([{ field: 'password', code: 'required' }]);

    // The app's sign-in with an assertion of the member's LINE identity is refused the same
    // way (and mails a new link).
    const appJar: Jar = new Map();
    const appAssertion = await proveWithLine(appJar, token, sub);
    const appSignIn = await t.request({
      method: 'GET',
      url: `/v1/tmp-return-jwt?assertion=${encodeURIComponent(appAssertion)}`,
      headers: { cookie: cookieHeader(appJar) },
    });
    expect(appSignIn.statusCode).toBe(403);
    expect(appSignIn.json().code).toBe('account_memorialized');
    expect((await mailed(member.email)).token).not.toBe(token);

    // Someone else's LINE account proves nothing, and is counted like a wrong password.
    const browser: Jar = new Map();
    const stranger = await proveWithLine(browser, token, 'line-someone-else');
    const mismatch = await post(
      '/v1/account_restoration/proof',
      { token, assertion: stranger },
      browser,
    );
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().code).toBe('restoration_identity_mismatch');
    const counted = await t.ctx.database.db.execute(
      sql`select max(failed_attempts) as failed from account_restoration_links where user_id = ${member.id}`,
    );
    expect(Number((counted as unknown as { rows: { failed: number }[] }).rows[0]!.failed)).toBe(1);

    // The member's own LINE account, in the browser it came back to, proves the link.
    const own = await proveWithLine(browser, token, sub);
    const elsewhere = await post('/v1/account_restoration/proof', { token, assertion: own });
    expect(elsewhere.statusCode).toBe(401);
    const proven = await post('/v1/account_restoration/proof', { token, assertion: own }, browser);
    expect(proven.statusCode, proven.body).toBe(200);
    expect(proven.json()).toMatchObject({ proven: true, hasPassword: false });
    expect((await linkNeeds(token)).json().proven).toBe(true);

    // The proof holds half an hour.
    t.clock.advance(31 * 60 * 1000);
    expect((await linkNeeds(token)).json().proven).toBe(false);
    expect((await post('/v1/account_restoration', { token })).statusCode).toBe(422);
    const again = await proveWithLine(browser, token, sub);
    expect(
      (await post('/v1/account_restoration/proof', { token, assertion: again }, browser))
        .statusCode,
    ).toBe(200);

    const restored = await post('/v1/account_restoration', { token });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ releasedAt, lettersStopped: 0 });

    // The link is spent: its page says so at once; LINE signs the member in again.
    expect((await linkNeeds(token)).json().code).toBe('restoration_link_invalid');
    provider.signInNext({ sub, email: member.email, name: 'めぐみ' });
    const back = await lineSignIn(t, new Map(), ISSUER, '/dashboard');
    expect(back.headers.location).toBe(`${SOCIAL_ORIGIN}/dashboard`);
    const log = await t.ctx.database.db.execute(
      sql`select detail from death_audit_log where user_id = ${member.id} and action = 'restored'`,
    );
    const detail = (log as unknown as { rows: { detail: { by: string } }[] }).rows[0]!.detail;
    expect(detail.by).toBe('provider_and_mail');
  });

  it('refuses proofs of unknown links and a round trip with no link', async () => {
    const unknown = await post('/v1/account_restoration/link', { token: 'x'.repeat(43) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('restoration_link_invalid');
    const started = await t.request({ method: 'GET', url: '/api/auth/restore/line' });
    expect(started.statusCode).toBe(302);
    expect(started.headers.location).toBe(`${SOCIAL_ORIGIN}/restore-account?token=&proof=failed`);
  });
});
