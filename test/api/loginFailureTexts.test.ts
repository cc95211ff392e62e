import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFrom } from '../../src/i18n/I18nProvider';
import { failureFromQuery, SIGN_IN_FAILURE_TEXT } from '../../src/screens/login/signInFailure';
import { createSessionApi, signInErrorOf } from '../../src/services/api/session';
import { createTestApp, type TestApp } from '../support/testApp';
import { cookieKeepingFetch } from './httpClientHarness';
import { registerActive } from './accountsSupport';

/**
 * The login screen's texts (spec §8) for what the real server answers: the session client
 * the screen uses signs in against the server on a real port, and the code it reports is
 * turned into text as the screen does (SIGN_IN_FAILURE_TEXT, then the Fluent bundle).
 * The per-client limit is lowered so that 429 comes after the 423.
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
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  origin = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await t.close();
});

describe('login screen texts for the server answers', () => {
  it('shows the 401, 423 and 429 texts of the spec, in the order the server gives them', async () => {
    const { body } = await registerActive(t);
    const session = createSessionApi({ origin, fetchImpl: cookieKeepingFetch() });
    const shown: string[] = [];
    const signIn = async (username: string, password: string) => {
      const result = await session.signInWithCredentials({ username, password }, '/dashboard');
      expect(result.ok).toBe(false);
      shown.push(text(SIGN_IN_FAILURE_TEXT[result.error ?? 'unexpected']));
    };
    for (let attempt = 0; attempt < 5; attempt += 1) await signIn(body.email, 'not the password');
    // Locked: even the right password is refused (a refused attempt is not counted).
    await signIn(body.email, body.password);
    // The client's 6th and 7th counted attempts are allowed, the 8th is over its limit.
    for (let attempt = 0; attempt < 3; attempt += 1) await signIn('someone@example.jp', 'guess');
    expect(shown).toEqual([
      ...Array(5).fill(SPEC[401]),
      SPEC[423],
      SPEC[401],
      SPEC[401],
      SPEC[429],
    ]);
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
