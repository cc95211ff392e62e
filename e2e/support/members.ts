import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  expect,
  type APIRequestContext,
  type Page,
  type PlaywrightWorkerArgs,
} from '@playwright/test';
import { untilHydrated } from './hydration';
import { workerServer } from './fixtures';

export interface E2eMember {
  email: string;
  password: string;
  username: string;
}

/** The body of one .eml file of the server's outbox, decoded from its transfer encoding. */
function mailBody(eml: string): string {
  const split = eml.indexOf('\n\n');
  const headers = eml.slice(0, split);
  const body = eml.slice(split + 2);
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The .eml files the e2e server's mail job has written so far, newest first. */
function outboxMails(): string[] {
  const outbox = path.join(workerServer().dataDir, 'outbox');
  // The folder appears with the first mail the job sends.
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .sort()
    .reverse()
    .map((file) => readFileSync(path.join(outbox, file), 'utf8'));
}

/** The activation link mailed to `email`, if the server's mail job has sent it yet. */
function activationLink(email: string): URL | undefined {
  for (const body of outboxMails().map(mailBody)) {
    for (const [link] of body.matchAll(/https?:\/\/\S+\/activate\?\S+/g)) {
      const url = new URL(link);
      if (url.searchParams.get('email') === email) return url;
    }
  }
  return undefined;
}

/** Waits for the activation link mailed to `email` (registration through the UI, too). */
export async function mailedActivationLink(email: string): Promise<URL> {
  await expect
    .poll(() => activationLink(email)?.href, { message: `an activation mail for ${email}` })
    .toContain('/activate');
  return activationLink(email)!;
}

/**
 * Opens the activation link mailed to `email` in `page` and gives the password chosen when
 * registering, which the activation screen asks for before it completes the registration.
 */
export async function activateFromMail(page: Page, email: string, password: string) {
  await page.goto((await mailedActivationLink(email)).href);
  await page.getByLabel('パスワード', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登録を完了する' }).click();
}

/**
 * The links whose address matches `pattern` in the outbox mails addressed to `email`, newest
 * mail first (e.g. the letter link of a time-capsule delivery).
 */
export function linksMailedTo(email: string, pattern: RegExp): URL[] {
  const addressed = new RegExp(`^to:.*${email.replace(/[.+]/g, '\\$&')}`, 'im');
  return outboxMails()
    .filter((eml) => addressed.test(eml.slice(0, eml.indexOf('\n\n'))))
    .flatMap((eml) => [...mailBody(eml).matchAll(/https?:\/\/\S+/g)].map(([link]) => new URL(link)))
    .filter((url) => pattern.test(url.pathname + url.search));
}

/** The user of the browser context's session, or null when signed out. */
export async function sessionUser(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const session = (await (await fetch('/api/auth/session')).json()) as { user?: unknown } | null;
    return session?.user ?? null;
  });
}

/** Registers a member through the real API and activates the account with the mailed link. */
export async function registerMember(
  request: APIRequestContext,
  email = `member-${randomUUID()}@example.jp`,
): Promise<E2eMember> {
  const member = {
    email,
    password: 'a quiet morning by the sea',
    username: 'hanako',
  };
  const registered = await request.post('/v1/user', {
    data: {
      username: member.username,
      email: member.email,
      password: member.password,
      first_name: '\u82b1\u5b50',
      last_name: '\u5c71\u7530',
      first_name_kana: '\u306f\u306a\u3053',
      last_name_kana: '\u3084\u307e\u3060',
      address: '\u6771\u4eac\u90fd',
      birthdate: '1955-05-05',
      sex_code: 2,
    },
  });
  expect(registered.status(), await registered.text()).toBe(202);

  const token = (await mailedActivationLink(member.email)).searchParams.get('token')!;
  const activated = await request.post(
    `/v1/user/confirm/${encodeURIComponent(token)}/${encodeURIComponent(member.email)}`,
    { data: { password: member.password } },
  );
  expect(activated.status(), await activated.text()).toBe(200);
  return member;
}

/** The member's access token for direct `/v1` calls (`POST /v1/login`). */
export async function accessTokenOf(
  request: APIRequestContext,
  member: E2eMember,
): Promise<{ userId: string; accessToken: string; memorialPageId: string }> {
  const response = await request.post('/v1/login', {
    form: { username: member.email, password: member.password },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { userId: string; accessToken: string; memorialPageId: string };
}

/**
 * Registers and activates a member, then signs in through the session layer, so that
 * `request`'s browser context is logged in.
 */
export async function signUpAndSignIn(request: APIRequestContext): Promise<E2eMember> {
  const member = await registerMember(request);
  await signInAs(request, member);
  return member;
}

/** Signs the member in through the session layer: the request context keeps the cookie. */
export async function signInAs(request: APIRequestContext, member: E2eMember): Promise<void> {
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as {
    csrfToken: string;
  };
  const signedIn = await request.post('/api/auth/callback/credentials', {
    form: {
      csrfToken,
      username: member.email,
      password: member.password,
      callbackUrl: `${workerServer().baseURL}/dashboard`,
      json: 'true',
    },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
}

/** Fills and sends the login screen's form (the page is on /login). */
export async function signInOnLoginScreen(page: Page, email: string, password: string) {
  await untilHydrated(page);
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'ログインする' }).click();
}

/** Registers and activates a member through a request context of its own, leaving no session behind. */
export async function registerApart(
  playwright: PlaywrightWorkerArgs['playwright'],
  email?: string,
): Promise<E2eMember> {
  const api = await playwright.request.newContext({ baseURL: workerServer().baseURL });
  const member = await registerMember(api, email);
  await api.dispose();
  return member;
}
