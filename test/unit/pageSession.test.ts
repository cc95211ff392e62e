import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { AuthSession } from '../../contract/sessionLayer';
import type { SessionApi } from '../../src/services/api/session';
import { authSessionWith } from '../../src/services/session/liveSession';
import { PAGE_SESSION_ID } from '../../contract/pages/pageHandover';
import { firstFromPage, takePageSession } from '../../src/services/session/pageSession';

const wire = {
  user: {
    id: 'u-1',
    username: '</script><script>alert(1)</script>',
    memorialPageId: null,
    iconUrl: null,
    accessToken: 'access-1',
  },
  expires: '2026-12-22T00:00:00.000Z',
};
const session: AuthSession = {
  user: { id: 'u-1', username: wire.user.username, memorialPageId: null, iconUrl: null },
  accessToken: 'access-1',
  expires: wire.expires,
};

/** Puts the element the server writes into a member's page (escaped as the server does). */
function pageCarries(text: string) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = PAGE_SESSION_ID;
  element.textContent = text;
  document.head.append(element);
}
const escaped = (value: unknown) =>
  JSON.stringify(value).replace(
    /[<>&]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

afterEach(() => document.getElementById(PAGE_SESSION_ID)?.remove());

describe('the session in the page', () => {
  it('is read once, escaped characters and all, and the element removed', () => {
    pageCarries(escaped(wire));
    expect(takePageSession()).toEqual(session);
    expect(document.getElementById(PAGE_SESSION_ID)).toBeNull();
    expect(takePageSession()).toBeUndefined();
  });

  it('is nothing when the page carries none or it does not parse', () => {
    expect(takePageSession()).toBeUndefined();
    pageCarries('{not json');
    expect(takePageSession()).toBeUndefined();
  });

  it('answers the first fetch without the session layer, and later ones from it', async () => {
    pageCarries(escaped(wire));
    const fetchSession = vi.fn(async () => null);
    const read = firstFromPage(fetchSession);
    expect(await read()).toEqual(session);
    expect(fetchSession).not.toHaveBeenCalled();
    expect(await read()).toBeNull();
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });

  it('starts the session machine authenticated without a GET /api/auth/session', async () => {
    pageCarries(escaped(wire));
    const fetchSession = vi.fn(async () => null);
    const api = { fetchSession, logClientError: vi.fn(async () => undefined) };
    const machine = authSessionWith({
      session: { ...api, fetchSession: firstFromPage(fetchSession) } as unknown as SessionApi,
      watchTabs: () => () => undefined,
      announceChange: () => undefined,
      syncUser: () => undefined,
    });
    const actor = createActor(machine, { input: {} }).start();
    const snapshot = await waitFor(actor, (s) => s.matches({ authenticated: 'idle' }));
    expect(snapshot.context.session).toEqual(session);
    expect(fetchSession).not.toHaveBeenCalled();
    actor.stop();
  });

  it('still asks the session layer when the page has no session (a visitor)', async () => {
    const fetchSession = vi.fn(async () => null);
    expect(await firstFromPage(fetchSession)()).toBeNull();
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });
});
