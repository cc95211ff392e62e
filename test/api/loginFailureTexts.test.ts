import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_THROTTLE } from '../../server/domain/accounts/loginThrottle';
import { bundleFrom } from '../../src/i18n/I18nProvider';
import { failureFromQuery, SIGN_IN_FAILURE_TEXT } from '../../src/screens/login/signInFailure';
import { createSessionApi, signInErrorOf } from '../../src/services/api/session';
import { createTestApp, type TestApp } from '../support/testApp';
import { cookieKeepingFetch } from './httpClientHarness';
import { loginFrom, newClient, registerActive } from './accountsSupport';

/**
 * The login screen's texts for what the real server answers: the session client
 * the screen uses signs in against the server on a real port, and the code it reports is
 * turned into text as the screen does (SIGN_IN_FAILURE_TEXT, then the Fluent bundle).
 * The per-client limit is lowered so that 429 comes after the 423 (strangers' guesses from
 * other addresses lock the account).
 */
const bundle = bundleFrom(readFileSync(path.resolve('src/i18n/ja/translation.ftl'), 'utf8'));
function text(id: string): string {
  const message = bundle.getMessage(id);
  if (!message?.value) throw new Error(`no Fluent message ${id}`);
  return bundle.formatPattern(message.value);
}

const SPEC = {
  required: 'メールアドレスとパスワードはどちらも必須です。',
  401: 'ログインに失敗しました。正しいEメールとパスワードの組み合わせでログインしてください',
  429: 'ログイン試行回数が上限に達しました。しばらく時間をおいてから再度お試しください。',
  423: 'アカウントがロックされています。パスワードリセットを行うか、しばらく時間をおいてから再度お試しください。',
  external: 'ログインに失敗しました。 通常ログインをお試しください。',
};

let t: TestApp;
let origin: string;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_ATTEMPTS_PER_CLIENT: '7' });
  // Fastify answers the address it listens on: http://127.0.0.1:<port>.
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

describe('login screen texts for the server answers', () => {
  it('shows the 401, 423 and 429 texts of the spec, in the order the server gives them', async () => {
    const { body } = await registerActive(t);
    const session = createSessionApi({ origin, fetchImpl: cookieKeepingFetch() });
    const shown: string[] = [];
    const signIn = async (username: string, password: string, unlockToken?: string) => {
      const result = await session.signInWithCredentials(
        { username, password, unlockToken },
        '/dashboard',
      );
      shown.push(
        result.ok ? 'signed in' : text(SIGN_IN_FAILURE_TEXT[result.error ?? 'unexpected']),
      );
    };
    await signIn(body.email, 'not the password');
    // Strangers elsewhere fill the account's cap: even the right password is refused, and
    // the screen adds that an unlock link was mailed.
    await Promise.all(
      Array.from({ length: DEFAULT_LOGIN_THROTTLE.failuresPerAccount }, () =>
        loginFrom(t, newClient(), body.email, 'a stranger guessing'),
      ),
    );
    await signIn(body.email, body.password);
    expect(text('login-error-account_locked-mailed')).toContain('メール');
    // The client's attempts are counted before anything else: 2 so far, the 7th is the
    // last allowed, the 8th is over the limit.
    for (let attempt = 0; attempt < 6; attempt += 1) await signIn('someone@example.jp', 'guess');
    expect(shown).toEqual([SPEC[401], SPEC[423], ...Array(5).fill(SPEC[401]), SPEC[429]]);
  });

  it("signs the owner of a locked account in from the mailed link, through the screen's client", async () => {
    // The test before used up this client's attempts: its window closes first.
    t.clock.advance(DEFAULT_LOGIN_THROTTLE.clientWindowMs);
    const { body } = await registerActive(t);
    await Promise.all(
      Array.from({ length: DEFAULT_LOGIN_THROTTLE.failuresPerAccount + 1 }, () =>
        loginFrom(t, newClient(), body.email, 'a stranger guessing'),
      ),
    );
    await t.sendMail();
    expect(t.mailbox.at(-1)?.link).toContain('/login?unlock=');
    const unlockToken = new URL(t.mailbox.at(-1)!.link!).searchParams.get('unlock')!;
    const session = createSessionApi({ origin, fetchImpl: cookieKeepingFetch() });
    const result = await session.signInWithCredentials(
      { username: body.email, password: body.password, unlockToken },
      '/dashboard',
    );
    expect(result).toMatchObject({ ok: true, error: null });
  });

  it('shows the unexpected-error text for anything else, and the blank and external texts', () => {
    const unexpected = text(SIGN_IN_FAILURE_TEXT[signInErrorOf(null) ?? 'unexpected']);
    expect(unexpected).toMatch(
      /^想定外のエラーが発生しました。.*サポートまでお問い合わせください。$/,
    );
    expect(text('login-required')).toBe(SPEC.required);
    expect(text(failureFromQuery(new URLSearchParams('error=OAuthCallback'))!)).toBe(SPEC.external);
  });
});
