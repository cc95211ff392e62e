import { randomUUID } from 'node:crypto';
import { PREFECTURES } from '../../contract/rules/prefectures';
import type { TestApp } from '../support/testApp';

/** A complete, valid registration body; each call a fresh address. */
export function registrationBody(overrides: Record<string, unknown> = {}) {
  return {
    username: 'hanako',
    email: `hanako-${randomUUID()}@example.jp`,
    password: 'a quiet morning by the sea',
    first_name: '\u82b1\u5b50',
    last_name: '\u5c71\u7530',
    first_name_kana: '\u306f\u306a\u3053',
    last_name_kana: '\u3084\u307e\u3060',
    address: PREFECTURES[12]!.name,
    birthdate: '1955-05-05',
    sex_code: 2,
    ...overrides,
  };
}

/** The token and email of the newest activation mail, read from its link. */
export function lastActivationLink(t: TestApp): { token: string; email: string; link: string } {
  const mail = t.mailbox.at(-1);
  if (!mail?.link) throw new Error('no mail with a link was sent');
  const url = new URL(mail.link);
  return {
    token: url.searchParams.get('token')!,
    email: url.searchParams.get('email')!,
    link: mail.link,
  };
}

/** POST /v1/login from a given client address (throttling is keyed on it). */
export function loginFrom(t: TestApp, client: string, username: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/login',
    remoteAddress: client,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
  });
}

/** A distinct client address per call, so tests do not share throttling counters. */
export function newClient(): string {
  const bytes = randomUUID().replace(/-/g, '').slice(0, 6);
  return `10.${parseInt(bytes.slice(0, 2), 16)}.${parseInt(bytes.slice(2, 4), 16)}.${parseInt(bytes.slice(4, 6), 16)}`;
}

/** Registers and activates a member through the API; answers the activation's login. */
export async function registerActive(t: TestApp, overrides: Record<string, unknown> = {}) {
  const body = registrationBody(overrides);
  const registered = await t.request({ method: 'POST', url: '/v1/user', body });
  if (registered.statusCode !== 202) throw new Error(`registration: ${registered.body}`);
  const { token, email } = lastActivationLink(t);
  const activated = await t.request({
    method: 'POST',
    url: `/v1/user/confirm/${encodeURIComponent(token)}/${encodeURIComponent(email)}`,
    body: { password: body.password },
  });
  if (activated.statusCode !== 200) throw new Error(`activation: ${activated.body}`);
  return { body, login: activated.json() as LoginBody };
}

export interface LoginBody {
  userId: string;
  username: string;
  memorialPageId: string;
  userIconUrl: string | null;
  accessToken: string;
  refreshToken: string;
}
