import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createSessionApi } from '../../src/services/api/session';
import { authSessionWith } from '../../src/services/session/liveSession';
import { owingSignOut, signOutOwed } from '../../src/services/session/owedSignOut';
import { createTestApp, type TestApp } from '../support/testApp';
import { registerActive } from './accountsSupport';
import { cookieKeepingFetch } from './httpClientHarness';

/**
 * The owed sign-out against the real session layer: one browser (a cookie jar and one
 * localStorage) whose network can lose the sign-out call, as a dropped connection does.
 */
let t: TestApp;
let origin: string;
beforeAll(async () => {
  t = await createTestApp();
  // Fastify answers the address it listens on: http://127.0.0.1:<port>.
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** One origin's localStorage, as the browser keeps it. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

async function browser() {
  const { body } = await registerActive(t);
  const jar = cookieKeepingFetch();
  const network = { signOutLost: false };
  const fetchImpl: typeof fetch = async (input, init) => {
    if (network.signOutLost && String(input).endsWith('/api/auth/signout'))
      throw new TypeError('Failed to fetch');
    return jar(input, init);
  };
  const storage = memoryStorage();
  const plain = createSessionApi({ origin, fetchImpl });
  const session = owingSignOut(plain, () => storage);
  const credentials = { username: body.email, password: body.password };
  expect((await session.signInWithCredentials(credentials, '/')).ok).toBe(true);
  /** A tab opened on this browser: the app's session machine on the same cookie and storage. */
  const openTab = () =>
    createActor(
      authSessionWith({
        session,
        watchTabs: () => () => undefined,
        announceChange: () => undefined,
        syncUser: () => undefined,
      }),
    ).start();
  return { network, storage, plain, session, credentials, openTab };
}

const settled = (tab: ReturnType<Awaited<ReturnType<typeof browser>>['openTab']>) =>
  waitFor(
    tab,
    (snapshot) =>
      snapshot.matches({ authenticated: 'idle' }) || snapshot.matches({ unauthenticated: 'idle' }),
  );

describe('an owed sign-out', () => {
  it('a sign-out the server takes owes nothing', async () => {
    const b = await browser();
    const tab = b.openTab();
    expect((await settled(tab)).matches('authenticated')).toBe(true);
    tab.send({ type: 'SIGN_OUT' });
    await settled(tab);
    expect(signOutOwed(() => b.storage)).toBe(false);
    expect(await b.plain.fetchSession()).toBeNull();
  });

  it('a lost sign-out is sent again by the next read, which then finds no session', async () => {
    const b = await browser();
    const tab = b.openTab();
    await settled(tab);
    b.network.signOutLost = true;
    tab.send({ type: 'SIGN_OUT' });
    expect((await settled(tab)).matches('unauthenticated')).toBe(true);
    expect(signOutOwed(() => b.storage)).toBe(true);
    // The cookie still opens the session on the server: only the debt keeps it out.
    expect(await b.plain.fetchSession()).not.toBeNull();

    // A reload while the sign-out is still lost: signed out all the same, the debt kept.
    const reloaded = b.openTab();
    expect((await settled(reloaded)).matches('unauthenticated')).toBe(true);
    expect(signOutOwed(() => b.storage)).toBe(true);

    // The next reload reaches the server: the sign-out is made there, and the debt paid.
    b.network.signOutLost = false;
    const again = b.openTab();
    expect((await settled(again)).matches('unauthenticated')).toBe(true);
    expect(signOutOwed(() => b.storage)).toBe(false);
    expect(await b.plain.fetchSession()).toBeNull();
  });

  it('a sign-in after a lost sign-out clears the debt and is not undone', async () => {
    const b = await browser();
    const tab = b.openTab();
    await settled(tab);
    b.network.signOutLost = true;
    tab.send({ type: 'SIGN_OUT' });
    await settled(tab);
    expect(signOutOwed(() => b.storage)).toBe(true);

    expect((await b.session.signInWithCredentials(b.credentials, '/')).ok).toBe(true);
    expect(signOutOwed(() => b.storage)).toBe(false);
    b.network.signOutLost = false;
    const reloaded = b.openTab();
    expect((await settled(reloaded)).matches('authenticated')).toBe(true);
    expect(await b.plain.fetchSession()).not.toBeNull();
  });

  it('a provider sign-in pays the debt before leaving, or does not leave', async () => {
    const b = await browser();
    const tab = b.openTab();
    await settled(tab);
    b.network.signOutLost = true;
    tab.send({ type: 'SIGN_OUT' });
    await settled(tab);
    await expect(b.session.signInWithProvider('google', '/')).rejects.toThrow('SIGNOUT_ERROR');
    expect(signOutOwed(() => b.storage)).toBe(true);
    expect(await b.plain.fetchSession()).not.toBeNull();
  });
});
