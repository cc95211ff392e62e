/**
 * Account integrity as an attacker tries it, against the real app: registering someone
 * else's address first (plain, inflow and external-provider registrations), a "this was not
 * me" link used again or after the member changed something since. The lock one address
 * cannot cause and the unlock link used again are in loginThrottle.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueProviderAssertion } from '../../server/domain/accounts/providerAssertion';
import { createTestApp, type TestApp } from '../support/testApp';
import {
  loginFrom,
  newClient,
  registerActive,
  registrationBody,
  type LoginBody,
} from './accountsSupport';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const mailsTo = (email: string) => t.mailbox.filter((mail) => mail.to === email);
const confirmUrl = (link: string) => {
  const url = new URL(link);
  const token = encodeURIComponent(url.searchParams.get('token')!);
  return `/v1/user/confirm/${token}/${encodeURIComponent(url.searchParams.get('email')!)}`;
};
/** Opens an activation link with the password the opener types (the screen's POST). */
const activate = (link: string, password: string) =>
  t.request({ method: 'POST', url: confirmUrl(link), body: { password } });
const activationLinksTo = (email: string) =>
  mailsTo(email)
    .map((mail) => mail.link!)
    .filter((link) => link.includes('/activate?'));

const VARIANTS = [
  { name: 'POST /v1/user', url: '/v1/user', extra: {} },
  { name: 'the inflow variant', url: '/v1/user/create_inflow_user', extra: { inflow_id: 'p-1' } },
];

describe('registering an address one does not read', () => {
  it.each(VARIANTS)(
    '$name: after the owner activates from their mailbox, only their password signs in',
    async ({ url, extra }) => {
      const victim = registrationBody(extra);
      const attackerPassword = 'the attacker typed this first';
      const first = await t.request({
        method: 'POST',
        url,
        body: { ...victim, username: 'attacker', password: attackerPassword },
      });
      expect(first.statusCode).toBe(202);
      const attackersLink = activationLinksTo(victim.email).at(-1)!;

      // The owner registers later, with their own password, and activates from the newest mail.
      expect((await t.request({ method: 'POST', url, body: victim })).statusCode).toBe(202);
      const ownersLink = activationLinksTo(victim.email).at(-1)!;
      expect(ownersLink).not.toBe(attackersLink);
      const activated = await activate(ownersLink, victim.password);
      expect(activated.statusCode).toBe(200);

      expect((await loginFrom(t, newClient(), victim.email, victim.password)).statusCode).toBe(200);
      expect((await loginFrom(t, newClient(), victim.email, attackerPassword)).statusCode).toBe(
        401,
      );
      expect((activated.json() as LoginBody).username).toBe(victim.username);
      // The pending registration left nothing: its own link no longer activates anything.
      const stale = await activate(attackersLink, attackerPassword);
      expect(stale.statusCode).toBe(400);
      expect(stale.json()).toMatchObject({
        code: 'activation_invalid',
        detail: expect.any(String),
      });
    },
  );

  it.each(VARIANTS)(
    '$name: the owner who opens a stranger’s activation mail cannot hand the stranger the account',
    async ({ url, extra }) => {
      const victim = registrationBody(extra);
      const attackerPassword = 'the attacker typed this first';
      const registered = await t.request({
        method: 'POST',
        url,
        body: { ...victim, username: 'attacker', password: attackerPassword },
      });
      expect(registered.statusCode).toBe(202);
      // The only mail in the owner's mailbox is the stranger's. Opened as it comes, or with
      // the owner's own password, it activates nothing and leaves the link unspent.
      const strangersLink = activationLinksTo(victim.email).at(-1)!;
      const opened = await t.request({ method: 'GET', url: confirmUrl(strangersLink) });
      expect(opened.statusCode).toBe(400);
      expect(opened.json()).toMatchObject({
        code: 'activation_password_required',
        detail: expect.any(String),
      });
      const withOwnPassword = await activate(strangersLink, victim.password);
      expect(withOwnPassword.statusCode).toBe(400);
      expect(withOwnPassword.json()).toMatchObject({
        code: 'activation_password_mismatch',
        detail: expect.any(String),
      });
      expect((await loginFrom(t, newClient(), victim.email, attackerPassword)).statusCode).toBe(
        401,
      );
      // The owner registers themself: their registration replaces the stranger's, and only
      // the owner's password signs in.
      expect((await t.request({ method: 'POST', url, body: victim })).statusCode).toBe(202);
      const ownersLink = activationLinksTo(victim.email).at(-1)!;
      expect((await activate(ownersLink, victim.password)).statusCode).toBe(200);
      expect((await activate(strangersLink, attackerPassword)).statusCode).toBe(400);
      expect((await loginFrom(t, newClient(), victim.email, victim.password)).statusCode).toBe(200);
      expect((await loginFrom(t, newClient(), victim.email, attackerPassword)).statusCode).toBe(
        401,
      );
    },
  );

  it('a stranger who registers after the owner leaves the owner’s newest mail unusable to them', async () => {
    const victim = registrationBody();
    expect((await t.request({ method: 'POST', url: '/v1/user', body: victim })).statusCode).toBe(
      202,
    );
    const attackerPassword = 'registered second, on purpose';
    const replaced = await t.request({
      method: 'POST',
      url: '/v1/user',
      body: { ...victim, username: 'attacker', password: attackerPassword },
    });
    expect(replaced.statusCode).toBe(202);
    // The owner opens the newest mail in their mailbox, the stranger's, with their password.
    const newest = activationLinksTo(victim.email).at(-1)!;
    expect((await activate(newest, victim.password)).json().code).toBe(
      'activation_password_mismatch',
    );
    expect((await loginFrom(t, newClient(), victim.email, attackerPassword)).statusCode).toBe(401);
  });

  it('the owner who opens a stranger’s external-provider registration mail cannot link the stranger’s identity', async () => {
    const victim = registrationBody();
    const strangersIdentity = { provider: 'line', providerUserId: `U-stranger-${Date.now()}` };
    const strangers = await issueProviderAssertion(strangersIdentity, t.config.authSecret, t.clock);
    const registered = await t.request({
      method: 'POST',
      url: '/v1/user/create_user_with_external_provider',
      headers: { cookie: `shinobu.provider-binding=${strangers.binding}` },
      body: {
        user_request: { ...victim, password: undefined, username: 'attacker' },
        provider_request: {
          provider_name: 'line',
          provider_user_id: strangersIdentity.providerUserId,
          access_token: strangers.assertion,
        },
      },
    });
    expect(registered.statusCode).toBe(202);
    const strangersLink = activationLinksTo(victim.email).at(-1)!;
    // Opened as it comes, the link completes nothing.
    const opened = await t.request({ method: 'GET', url: confirmUrl(strangersLink) });
    expect(opened.statusCode).toBe(400);
    expect(opened.json()).toMatchObject({
      code: 'activation_provider_required',
      detail: expect.any(String),
    });
    // The owner signs in with their own LINE account from the link's page: not the identity
    // the registration was made with, so nothing is completed.
    const ownersIdentity = { provider: 'line', providerUserId: `U-owner-${Date.now()}` };
    const owners = await issueProviderAssertion(ownersIdentity, t.config.authSecret, t.clock);
    const withOwnLine = await t.request({
      method: 'POST',
      url: confirmUrl(strangersLink),
      headers: { cookie: `shinobu.provider-binding=${owners.binding}` },
      body: { provider_assertion: owners.assertion },
    });
    expect(withOwnLine.statusCode).toBe(400);
    expect(withOwnLine.json()).toMatchObject({
      code: 'activation_provider_mismatch',
      detail: expect.any(String),
    });
    // The stranger's LINE sign-in reaches no account.
    const later = await issueProviderAssertion(strangersIdentity, t.config.authSecret, t.clock);
    const strangerSignsIn = await t.request({
      method: 'GET',
      url: `/v1/tmp-return-jwt?assertion=${encodeURIComponent(later.assertion)}`,
      headers: { cookie: `shinobu.provider-binding=${later.binding}` },
    });
    expect(strangerSignsIn.statusCode).toBe(401);
  });

  it('an external-provider registration of the address leaves no identity on the owner’s account', async () => {
    const victim = registrationBody();
    const attackersIdentity = { provider: 'line', providerUserId: `U-attacker-${Date.now()}` };
    // Each registration carries a fresh assertion and the binding cookie of the browser it
    // was issued to, as a real return from the provider does.
    const registerWithProvider = async (userRequest: Record<string, unknown>) => {
      const issued = await issueProviderAssertion(attackersIdentity, t.config.authSecret, t.clock);
      return t.request({
        method: 'POST',
        url: '/v1/user/create_user_with_external_provider',
        headers: { cookie: `shinobu.provider-binding=${issued.binding}` },
        body: {
          user_request: userRequest,
          provider_request: {
            provider_name: 'line',
            provider_user_id: attackersIdentity.providerUserId,
            access_token: issued.assertion,
          },
        },
      });
    };
    const externalRegistration = () =>
      registerWithProvider({ ...victim, password: undefined, username: 'attacker' });
    expect((await externalRegistration()).statusCode).toBe(202);

    // The owner asks for a password reset: a registration nobody activated gets no link,
    // so the owner's reset cannot activate the attacker's registration with its identity.
    const before = mailsTo(victim.email).length;
    await t.request({ method: 'POST', url: '/v1/password_reset', body: { email: victim.email } });
    expect(mailsTo(victim.email).slice(before)).toEqual([]);

    // The owner registers and activates; the attacker's identity is linked to nothing.
    await t.request({ method: 'POST', url: '/v1/user', body: victim });
    const activated = await activate(activationLinksTo(victim.email).at(-1)!, victim.password);
    expect(activated.statusCode).toBe(200);
    expect((await loginFrom(t, newClient(), victim.email, victim.password)).statusCode).toBe(200);
    const again = await registerWithProvider({ ...registrationBody(), password: undefined });
    expect(again.statusCode).toBe(202);
  });
});

/** A member who changed their address from `old` to `target`; answers the old mailbox's report token. */
async function memberWhoMovedAddress() {
  const { body, login } = await registerActive(t);
  const target = `moved-${Math.random().toString(36).slice(2)}@example.jp`;
  const asked = await t.request({
    method: 'POST',
    url: '/v1/mypage/email',
    token: login.accessToken,
    body: { new_email: target, current_password: body.password },
  });
  expect(asked.statusCode).toBe(202);
  const confirmToken = new URL(mailsTo(target).at(-1)!.link!).searchParams.get('token');
  const confirmed = await t.request({
    method: 'POST',
    url: '/v1/mypage/email/confirm',
    body: { token: confirmToken },
  });
  expect(confirmed.statusCode).toBe(200);
  const reportToken = new URL(mailsTo(body.email).at(-1)!.link!).searchParams.get('token')!;
  return { body, login, target, reportToken };
}

const report = (token: string) =>
  t.request({ method: 'POST', url: '/v1/account/change_report', body: { token } });

describe('a "this was not me" link', () => {
  it('works once, and its use is mailed to both addresses', async () => {
    const { body, target, reportToken } = await memberWhoMovedAddress();
    const first = await report(reportToken);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ change: 'email', emailRestored: true });
    const second = await report(reportToken);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({
      code: 'change_report_invalid',
      detail: expect.stringContaining('used'),
    });

    const taken = mailsTo(body.email).findLast((mail) => mail.subject.includes('ご報告'))!;
    expect(taken.subject).toContain('ご報告を受け付けました');
    const replaced = mailsTo(target).at(-1)!;
    expect(replaced.subject).toContain('ご報告を受け付けました');
    expect(replaced.text).toContain(body.email);
  });

  it('no longer puts the old address back once the member has changed something since', async () => {
    const { body, login, target, reportToken } = await memberWhoMovedAddress();
    const later = await t.request({
      method: 'PUT',
      url: `/v1/endingnote/${login.userId}/sections/self/visibility`,
      token: login.accessToken,
      body: { visibility: 'readers_now', current_password: body.password },
    });
    expect(later.statusCode).toBe(200);
    const refused = await report(reportToken);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'change_report_superseded',
      detail: expect.any(String),
    });
    expect((await loginFrom(t, newClient(), target, body.password)).statusCode).toBe(200);
    expect((await loginFrom(t, newClient(), body.email, body.password)).statusCode).toBe(401);
  });
});
