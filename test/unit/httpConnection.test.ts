import { describe, expect, it } from 'vitest';
import {
  connectHttpSession,
  connectedSession,
  whenSessionConnected,
} from '../../src/services/http/connection';

describe('the HTTP client and the session connection', () => {
  it('lets an early caller (a route loader) wait until the session is connected', async () => {
    let waited = false;
    const waiting = whenSessionConnected().then(() => {
      waited = true;
    });
    await Promise.resolve();
    expect(waited).toBe(false);
    expect(await connectedSession.accessToken()).toBeUndefined();
    const disconnect = connectHttpSession({
      accessToken: async () => 'access-1',
      refresh: async () => ({ ok: true }),
      authorisationFailed: () => undefined,
    });
    await waiting;
    expect(waited).toBe(true);
    expect(await connectedSession.accessToken()).toBe('access-1');
    disconnect();
    // Connected once is enough: a later caller does not wait for a reconnection.
    await whenSessionConnected();
  });
});
